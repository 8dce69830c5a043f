#pragma once

#include "delegates/TextCellDelegate.h"
#include "kafka/GroupTypes.h"

#include <QColor>
#include <QHash>
#include <QPixmap>

namespace groupscope::ui {

// Paints a group's state as a coloured badge, so a rebalancing or dead group stands out
// in a long list at a glance. Paint-only: the state is not editable.
class GroupStateBadgeDelegate : public TextCellDelegate {
    Q_OBJECT
public:
    using TextCellDelegate::TextCellDelegate;

    struct Colours {
        QColor background;
        QColor text;
    };
    // A failed describe (error set) is shown like an unknown state.
    static Colours coloursFor(kafka::GroupState state, bool failed);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    // A cell of one state looks the same in every row: its badge is painted once per look
    // (text, colours, cell size) into a pixmap, then copied. Measuring, eliding and drawing
    // the text and an antialiased rounded rectangle per cell cost a millisecond per
    // repaint of the list (BenchGuiTenThousandGroups, perf), where a copy costs microseconds.
    struct Look {
        QString text;
        QRgb background;
        QRgb foreground;
        QSize cell;
        friend bool operator==(const Look& a, const Look& b) {
            return a.text == b.text && a.background == b.background &&
                   a.foreground == b.foreground && a.cell == b.cell;
        }
        friend size_t qHash(const Look& look, size_t seed = 0) {
            return qHashMulti(seed, look.text, look.background, look.foreground, look.cell.width(),
                              look.cell.height());
        }
    };
    const QPixmap& badge(const Look& look, const QFont& font, qreal pixelRatio) const;
    static void paintBadge(QPainter* painter, const Look& look, const QFont& font);

    // A handful of states by a few cell sizes; resizing the column makes new sizes, so the
    // cache starts again when it holds more than this.
    static constexpr int maxLooks = 64;
    mutable QHash<Look, QPixmap> m_badges;
    mutable QFont m_badgeFont;      // what the cached badges were painted with
    mutable qreal m_pixelRatio = 0; // and for which screen
};

} // namespace groupscope::ui
