// The group list's painted cells: the state badge in its state's colours (a group that
// could not be described in the failure's), painted from its cache exactly as a fresh
// delegate paints it, and painted anew when the font changes; the sparkline in the
// warning colour when the lag rises, the palette's accent otherwise, nothing for a single
// sample.

#include "PaintedCell.h"
#include "delegates/GroupStateBadgeDelegate.h"
#include "delegates/LagSparklineDelegate.h"
#include "models/GroupListModel.h"
#include "snapshot/LagSparkline.h"

#include <QImage>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using groupscope::kafka::GroupState;
using groupscope::monitor::LagSparkline;
using groupscope::ui::GroupListModel;
using groupscope::ui::GroupStateBadgeDelegate;
using groupscope::ui::LagSparklineDelegate;

namespace {

constexpr int cellWidth = 120;
constexpr int cellHeight = 24;

// `delegate` paints the model's only cell into a white image, in `font`.
QImage paintCell(const QStyledItemDelegate& delegate, const QTableView& view,
                 const QFont& font = {}) {
    return groupscope::test::paintedCell(delegate, view, QSize(cellWidth, cellHeight), font);
}

int pixelsOf(const QImage& image, const QColor& colour) {
    int found = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            found += image.pixelColor(x, y) == colour;
    return found;
}

// The rightmost column with a pixel that is not white: where the badge ends.
int rightEdge(const QImage& image) {
    for (int x = image.width() - 1; x >= 0; --x)
        for (int y = 0; y < image.height(); ++y)
            if (image.pixelColor(x, y) != QColor(Qt::white))
                return x;
    return -1;
}

// Whether some pixel is mostly the warning orange (0xe0, 0x6c, 0x00).
bool hasOrangePixels(const QImage& image) {
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.red() > 200 && pixel.green() > 80 && pixel.green() < 140 && pixel.blue() < 60)
                return true;
        }
    return false;
}

} // namespace

class TestGroupListDelegates : public QObject {
    Q_OBJECT

private slots:
    void theBadgeShowsTheStatesColoursFromItsCache() {
        QStandardItemModel model(1, 1);
        QTableView view;
        view.setModel(&model);
        const QModelIndex cell = model.index(0, 0);
        model.setData(cell, QStringLiteral("Stable"));
        model.setData(cell, int(GroupState::Stable), GroupListModel::StateRole);
        GroupStateBadgeDelegate cached;
        const QImage stable = paintCell(cached, view);
        const auto stableColours = GroupStateBadgeDelegate::coloursFor(GroupState::Stable, false);
        QVERIFY(pixelsOf(stable, stableColours.background) > 100);
        // Painted again from the cache: the very same pixels as a delegate painting it new.
        QCOMPARE(paintCell(cached, view), stable);
        QCOMPARE(paintCell(GroupStateBadgeDelegate(), view), stable);

        // The same text, but the group could not be described: the failure's colours.
        model.setData(cell, QStringLiteral("could not describe"), Qt::ToolTipRole);
        const QImage failed = paintCell(cached, view);
        QCOMPARE(pixelsOf(failed, stableColours.background), 0);
        QVERIFY(pixelsOf(failed,
                         GroupStateBadgeDelegate::coloursFor(GroupState::Stable, true).background) >
                100);

        // Another state, then the first again: each its own.
        model.setData(cell, QVariant(), Qt::ToolTipRole);
        model.setData(cell, QStringLiteral("Empty"));
        model.setData(cell, int(GroupState::Empty), GroupListModel::StateRole);
        QVERIFY(pixelsOf(paintCell(cached, view),
                         GroupStateBadgeDelegate::coloursFor(GroupState::Empty, false).background) >
                100);
        model.setData(cell, QStringLiteral("Stable"));
        model.setData(cell, int(GroupState::Stable), GroupListModel::StateRole);
        QCOMPARE(paintCell(cached, view), stable);
    }

    void aNewFontPaintsTheBadgeAnew() {
        QStandardItemModel model(1, 1);
        QTableView view;
        view.setModel(&model);
        model.setData(model.index(0, 0), QStringLiteral("Empty"));
        model.setData(model.index(0, 0), int(GroupState::Empty), GroupListModel::StateRole);
        GroupStateBadgeDelegate cached;
        QFont small;
        small.setPointSize(7);
        QFont large;
        large.setPointSize(11);
        const QImage smallBadge = paintCell(cached, view, small);
        const QImage largeBadge = paintCell(cached, view, large);
        // The text is wider in the larger font, so is its badge.
        QVERIFY2(rightEdge(largeBadge) > rightEdge(smallBadge),
                 qPrintable(QStringLiteral("badge ends at %1 in 7 pt and %2 in 11 pt")
                                .arg(rightEdge(smallBadge))
                                .arg(rightEdge(largeBadge))));
        QCOMPARE(largeBadge, paintCell(GroupStateBadgeDelegate(), view, large));
        QCOMPARE(paintCell(cached, view, small), smallBadge);
    }

    void theSparklineWarnsOfRisingLag() {
        QStandardItemModel model(1, 1);
        QTableView view;
        view.setModel(&model);
        const LagSparklineDelegate delegate(GroupListModel::LagTrendRole);
        const auto paintTrend = [&](const LagSparkline& trend) {
            model.setData(model.index(0, 0), QVariant::fromValue(trend),
                          GroupListModel::LagTrendRole);
            return paintCell(delegate, view);
        };
        const QImage rising = paintTrend({10, 40, 30, 90});
        QVERIFY(hasOrangePixels(rising));
        const QImage falling = paintTrend({90, 30, 40, 10});
        QVERIFY(!hasOrangePixels(falling));
        QVERIFY(pixelsOf(falling, QColor(Qt::white)) < cellWidth * cellHeight);
        // One sample is no line: the cell stays empty.
        QCOMPARE(pixelsOf(paintTrend({42}), QColor(Qt::white)), cellWidth * cellHeight);
    }
};

QTEST_MAIN(TestGroupListDelegates)
#include "TestGroupListDelegates.moc"
