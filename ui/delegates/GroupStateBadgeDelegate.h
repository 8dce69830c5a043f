#pragma once

#include "kafka/GroupTypes.h"

#include <QColor>
#include <QStyledItemDelegate>

namespace groupscope::ui {

// Paints a group's state as a coloured badge, so a rebalancing or dead group stands out
// in a long list at a glance. Paint-only: the state is not editable.
class GroupStateBadgeDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    struct Colours {
        QColor background;
        QColor text;
    };
    // A failed describe (error set) is shown like an unknown state.
    static Colours coloursFor(kafka::GroupState state, bool failed);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace groupscope::ui
