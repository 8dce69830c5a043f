#pragma once

#include "delegates/TextCellDelegate.h"

namespace groupscope::ui {

// Paints a partition's lag as a bar relative to the largest lag in the table, behind the
// number. Paint-only: it reads PartitionTableModel::LagRole and MaxLagRole and never edits.
class LagBarDelegate : public TextCellDelegate {
    Q_OBJECT
public:
    LagBarDelegate(int lagRole, int maxLagRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

private:
    int m_lagRole;
    int m_maxLagRole;
};

} // namespace groupscope::ui
