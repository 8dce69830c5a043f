// ChangedCellBlocks: the same run of changed columns in consecutive rows becomes one block,
// and a block never covers a cell that did not change; a read-only table's busy refresh
// is one block around every change.

#include "models/ChangedCellBlocks.h"

#include <QTest>

using groupscope::ui::ChangedCellBlocks;
using groupscope::ui::ChangedColumns;

namespace {

using Blocks = QList<QList<int>>; // {firstRow, lastRow, firstColumn, lastColumn}

ChangedColumns columns(std::initializer_list<int> changed, int count = 6) {
    ChangedColumns flags(count, false);
    for (int column : changed)
        flags[column] = true;
    return flags;
}

} // namespace

class TestChangedCellBlocks : public QObject {
    Q_OBJECT

private slots:
    void theSameRunInConsecutiveRowsIsOneBlock() {
        Blocks blocks;
        {
            ChangedCellBlocks changes([&](int r0, int r1, int c0, int c1) {
                blocks.append({r0, r1, c0, c1});
            });
            for (int row = 0; row < 1000; ++row)
                changes.addRow(row, columns({4, 5}));
        }
        QCOMPARE(blocks, Blocks({{0, 999, 4, 5}}));
    }

    void differentRunsAndGapsSplitBlocksAndNothingUnchangedIsCovered() {
        Blocks blocks;
        ChangedCellBlocks changes([&](int r0, int r1, int c0, int c1) {
            blocks.append({r0, r1, c0, c1});
        });
        changes.addRow(0, columns({1, 4, 5}));
        changes.addRow(1, columns({4, 5}));
        changes.addRow(2, columns({}));
        changes.addRow(3, columns({4, 5}));
        changes.addRow(5, columns({4, 5})); // row 4 had no change at all
        changes.flush();
        std::sort(blocks.begin(), blocks.end());
        QCOMPARE(blocks, Blocks({{0, 0, 1, 1}, {0, 1, 4, 5}, {3, 3, 4, 5}, {5, 5, 4, 5}}));
    }

    void aRowWithAWiderRunStartsANewBlock() {
        Blocks blocks;
        ChangedCellBlocks changes([&](int r0, int r1, int c0, int c1) {
            blocks.append({r0, r1, c0, c1});
        });
        changes.addRow(0, columns({4, 5}));
        changes.addRow(1, columns({3, 4, 5}));
        changes.flush();
        QCOMPARE(blocks, Blocks({{0, 0, 4, 5}, {1, 1, 3, 5}}));
    }

    void aReadOnlyTableGetsExactBlocksUpToTheLimit() {
        Blocks blocks;
        {
            ChangedCellBlocks changes(
                [&](int r0, int r1, int c0, int c1) {
                    blocks.append({r0, r1, c0, c1});
                },
                ChangedCellBlocks::Precision::ReadOnly);
            changes.addRow(0, columns({1, 4, 5}));
            changes.addRow(1, columns({4, 5}));
            changes.addRow(3, columns({4}));
        }
        std::sort(blocks.begin(), blocks.end());
        QCOMPARE(blocks, Blocks({{0, 0, 1, 1}, {0, 1, 4, 5}, {3, 3, 4, 4}}));
    }

    void aReadOnlyTablesBusyRefreshIsOneBlockAroundEveryChange() {
        Blocks blocks;
        ChangedCellBlocks changes(
            [&](int r0, int r1, int c0, int c1) {
                blocks.append({r0, r1, c0, c1});
            },
            ChangedCellBlocks::Precision::ReadOnly);
        // Alternating runs end a block in every row: far more than the limit.
        for (int row = 10; row < 10 + 4 * ChangedCellBlocks::readOnlyBlockLimit; ++row)
            changes.addRow(row, row % 2 ? columns({2}) : columns({4, 5}));
        changes.flush();
        QCOMPARE(blocks, Blocks({{10, 9 + 4 * ChangedCellBlocks::readOnlyBlockLimit, 2, 5}}));
        // The next refresh starts afresh.
        blocks.clear();
        changes.addRow(0, columns({3}));
        changes.flush();
        QCOMPARE(blocks, Blocks({{0, 0, 3, 3}}));
    }
};

QTEST_GUILESS_MAIN(TestChangedCellBlocks)
#include "TestChangedCellBlocks.moc"
