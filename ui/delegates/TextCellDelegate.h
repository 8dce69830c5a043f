#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace groupscope::ui {

// Paints a read-only cell of one line of text straight with QPainter: the view's
// background and selection, the text (elided at the right when it does not fit) and the
// focus frame, from two roles of the model (DisplayRole, TextAlignmentRole).
//
// Why not QStyledItemDelegate: it asks the model for seven roles per cell and lays the
// text out three times (size, layout, elision). In a table whose every visible cell
// changes on each refresh (the Partitions tab of a busy group) that was half of the GUI
// thread's time per refresh. Cells with fonts, colours, icons or check boxes need
// QStyledItemDelegate; editing is QStyledItemDelegate's as before.
class TextCellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

protected:
    // Sets the option's text and alignment from the model, as initStyleOption would.
    static void withText(QStyleOptionViewItem& option, const QModelIndex& index);
    // The cell without content: selection (or nothing) and, on the current cell, the
    // focus frame. The row's alternating background is the view's.
    static void paintFrame(QPainter* painter, const QStyleOptionViewItem& option);
    // The option's text in the cell's text area, in the palette's colour for its state.
    void paintText(QPainter* painter, const QStyleOptionViewItem& option) const;

private:
    // `text` laid out (elided to `width` when longer), from a cache: most cells show the
    // same text as on the last paint (topic, partition, owner), and laying text out is
    // most of the cost of painting it.
    const QStaticText& laidOut(const QString& text, const QFont& font, int width) const;

    struct LaidOutText {
        int width = -1; // the width it was laid out for
        QStaticText text;
    };
    static constexpr int textCacheLimit = 4096;
    mutable QHash<QString, LaidOutText> m_texts;
    mutable QFont m_textFont;
};

} // namespace groupscope::ui
