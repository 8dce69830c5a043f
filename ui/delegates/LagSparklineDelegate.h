#pragma once

#include "delegates/TextCellDelegate.h"

namespace groupscope::ui {

// Paints a group's recent total lag as a sparkline: a line scaled to the cell, its last
// point marked, so a growing lag stands out in a list of hundreds of groups. Paint-only:
// it reads a monitor::LagSparkline (QList<float>) from `trendRole` (oldest first).
class LagSparklineDelegate : public TextCellDelegate {
    Q_OBJECT
public:
    explicit LagSparklineDelegate(int trendRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_trendRole;
};

} // namespace groupscope::ui
