// TextCellDelegate paints a cell's text as QStyledItemDelegate would place it, from a cache
// of laid-out texts kept in two generations: a text painted again after thousands of
// others (the cache rolled over in between) and a text painted at another width come out
// exactly as a delegate that never saw them paints them. A colour from the model's
// ForegroundRole (the group list's health verdicts) is the text's colour.

#include "PaintedCell.h"
#include "delegates/TextCellDelegate.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using groupscope::ui::TextCellDelegate;

namespace {

// Whether any pixel of `image` is mostly red: a red text's glyphs.
bool hasRedPixels(const QImage& image) {
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.red() > 150 && pixel.green() < 100 && pixel.blue() < 100)
                return true;
        }
    return false;
}

// `delegate` paints the model's only cell, `width` pixels wide, into an image.
QImage paintCell(const TextCellDelegate& delegate, const QTableView& view, int width) {
    return groupscope::test::paintedCell(delegate, view, QSize(width, 24), view.font());
}

} // namespace

class TestTextCellDelegate : public QObject {
    Q_OBJECT

private slots:
    void textsPaintTheSameAfterTheCacheRollsOver() {
        QStandardItemModel model(1, 1);
        QTableView view;
        view.setModel(&model);
        TextCellDelegate cached;
        const auto paintText = [&](const TextCellDelegate& delegate, const QString& text,
                                   int width) {
            model.setData(model.index(0, 0), text);
            return paintCell(delegate, view, width);
        };
        const QString lag = QStringLiteral("1,234,567 (3 without a commit)");
        const QImage first = paintText(cached, lag, 260);
        // Far more texts than one generation holds: the first one is now only in the
        // older generation, or in neither.
        for (int i = 0; i < 5000; ++i)
            paintText(cached, QString::number(i), 260);
        QCOMPARE(paintText(cached, lag, 260), first);
        {
            const TextCellDelegate fresh;
            QCOMPARE(paintText(fresh, lag, 260), first);
            // Narrower than the text: elided, as a fresh delegate elides it.
            QCOMPARE(paintText(cached, lag, 60), paintText(fresh, lag, 60));
            QVERIFY(paintText(cached, lag, 60) != paintText(cached, lag, 260).copy(0, 0, 60, 24));
        }
        // And back to the full width once more.
        QCOMPARE(paintText(cached, lag, 260), first);
    }

    void theModelsForegroundColoursTheText() {
        QStandardItemModel model(1, 1);
        QTableView view;
        view.setModel(&model);
        const TextCellDelegate delegate;
        model.setData(model.index(0, 0), QStringLiteral("ERR"));
        QVERIFY(!hasRedPixels(paintCell(delegate, view, 80)));
        model.setData(model.index(0, 0), QColor(0xd3, 0x2f, 0x2f), Qt::ForegroundRole);
        QVERIFY(hasRedPixels(paintCell(delegate, view, 80)));
    }
};

QTEST_MAIN(TestTextCellDelegate)
#include "TestTextCellDelegate.moc"
