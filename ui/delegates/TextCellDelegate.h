#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace groupscope::ui {

// Paints a read-only cell of one line of text straight with QPainter: the view's
// background and selection, the text (elided at the right when it does not fit) and the
// focus frame, from three roles of the model (DisplayRole, TextAlignmentRole and
// ForegroundRole, the text's colour where the model gives one).
//
// Why not QStyledItemDelegate: it asks the model for seven roles per cell and lays the
// text out three times (size, layout, elision). In a table whose every visible cell
// changes on each refresh (the Partitions tab of a busy group) that was half of the GUI
// thread's time per refresh. Cells with fonts, icons or check boxes need
// QStyledItemDelegate; editing is QStyledItemDelegate's as before.
class TextCellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

protected:
    // Sets the option's text, alignment and text colour from the model, as initStyleOption
    // would.
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
    // Two generations: when the newer one is full it becomes the older one, and a text
    // found there moves back. Clearing one full cache instead made every visible cell lay
    // its text out again on the next paint, a spike of several milliseconds every few
    // dozen refreshes of a list whose lag texts change on each.
    static constexpr int textCacheGeneration = 1024;
    mutable QHash<QString, LaidOutText> m_texts;
    mutable QHash<QString, LaidOutText> m_olderTexts;
    mutable QFont m_textFont;
};

} // namespace groupscope::ui
