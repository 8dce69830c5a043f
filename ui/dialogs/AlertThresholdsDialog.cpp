#include "dialogs/AlertThresholdsDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace groupscope::ui {

AlertThresholdsDialog::AlertThresholdsDialog(const QString& group,
                                             const alerts::AlertThresholds& current,
                                             QWidget* parent)
    : QDialog(parent)
    , m_totalLag(new QSpinBox(this))
    , m_timeLag(new QDoubleSpinBox(this))
    , m_storm(new QSpinBox(this))
    , m_stuck(new QDoubleSpinBox(this)) {
    setObjectName(QStringLiteral("alertThresholdsDialog"));
    setWindowTitle(tr("Alert thresholds — %1").arg(group));

    m_totalLag->setObjectName(QStringLiteral("maxTotalLag"));
    m_totalLag->setRange(0, std::numeric_limits<int>::max());
    m_totalLag->setSpecialValueText(tr("none"));
    m_totalLag->setGroupSeparatorShown(true);
    m_totalLag->setValue(
        int(std::min<int64_t>(current.maxTotalLag.value_or(0), std::numeric_limits<int>::max())));
    m_timeLag->setObjectName(QStringLiteral("maxTimeLag"));
    m_timeLag->setRange(0, 7 * 24 * 3600);
    m_timeLag->setDecimals(0);
    m_timeLag->setSuffix(tr(" s"));
    m_timeLag->setSpecialValueText(tr("none"));
    m_timeLag->setValue(current.maxTimeLagSeconds.value_or(0));
    m_storm->setObjectName(QStringLiteral("stormRebalances"));
    m_storm->setRange(1, 1000);
    m_storm->setSuffix(tr(" in 10 min"));
    m_storm->setValue(current.rebalance.stormRebalances);
    m_stuck->setObjectName(QStringLiteral("stuckAfter"));
    m_stuck->setRange(0, 24 * 3600);
    m_stuck->setDecimals(0);
    m_stuck->setSuffix(tr(" s"));
    m_stuck->setSpecialValueText(tr("the group's own timeouts"));
    m_stuck->setValue(double(current.rebalance.stuckAfterMs.value_or(0)) / 1000.0);

    auto* form = new QFormLayout;
    form->addRow(tr("Alert when total &lag exceeds:"), m_totalLag);
    form->addRow(tr("Alert when &time lag exceeds:"), m_timeLag);
    form->addRow(tr("Rebalance &storm from:"), m_storm);
    form->addRow(tr("Rebalance &stuck after:"), m_stuck);
    auto* note = new QLabel(
        tr("A storm makes the group's health WARN and a stuck rebalance ERR, in the list, the "
           "detail and the CLI alike. Without a stuck time of its own a group is stuck after "
           "the shorter of its session and rebalance timeouts (read from the offsets topic), "
           "or after %1 s when those are unknown.")
            .arg(lag::RebalanceThresholds::defaultStuckAfterMs / 1000),
        this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] {
                m_totalLag->setValue(0);
                m_timeLag->setValue(0);
                m_storm->setValue(lag::RebalanceThresholds::defaultStormRebalances);
                m_stuck->setValue(0);
            });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

alerts::AlertThresholds AlertThresholdsDialog::thresholds() const {
    alerts::AlertThresholds thresholds;
    if (m_totalLag->value() > 0)
        thresholds.maxTotalLag = m_totalLag->value();
    if (m_timeLag->value() > 0)
        thresholds.maxTimeLagSeconds = m_timeLag->value();
    thresholds.rebalance.stormRebalances = m_storm->value();
    if (m_stuck->value() > 0)
        thresholds.rebalance.stuckAfterMs = int64_t(m_stuck->value() * 1000);
    return thresholds;
}

} // namespace groupscope::ui
