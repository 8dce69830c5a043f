#pragma once

#include "alerts/AlertThresholds.h"

#include <QDialog>

class QDoubleSpinBox;
class QSpinBox;

namespace groupscope::ui {

// The thresholds of one watched group: total lag and time lag (alerts of their own), and
// the rebalance storm count and stuck time that feed its verdict. 0 means "none" for the
// lag thresholds and "the group's own timeouts" for the stuck time.
class AlertThresholdsDialog : public QDialog {
    Q_OBJECT
public:
    AlertThresholdsDialog(const QString& group, const alerts::AlertThresholds& current,
                          QWidget* parent = nullptr);

    alerts::AlertThresholds thresholds() const;

    // The spin boxes, for tests that fill the dialog without a user.
    QSpinBox* totalLagEdit() const { return m_totalLag; }
    QDoubleSpinBox* timeLagEdit() const { return m_timeLag; }
    QSpinBox* stormEdit() const { return m_storm; }
    QDoubleSpinBox* stuckEdit() const { return m_stuck; }

private:
    QSpinBox* m_totalLag;
    QDoubleSpinBox* m_timeLag;
    QSpinBox* m_storm;
    QDoubleSpinBox* m_stuck;
};

} // namespace groupscope::ui
