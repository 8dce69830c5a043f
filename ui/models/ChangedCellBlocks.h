#pragma once

#include <QList>
#include <QVarLengthArray>

#include <algorithm>
#include <functional>

namespace groupscope::ui {

// One flag per column of a row: whether that cell changed. On the stack for tables of up
// to 32 columns, so a diff of 10,000 rows allocates nothing per row.
using ChangedColumns = QVarLengthArray<bool, 32>;

// Collects the runs of changed cells of a refresh, row by row, and merges the same run of
// columns in consecutive rows into one block: a refresh of 10,000 partitions whose lag
// moved then costs a handful of dataChanged signals instead of 10,000, each of which a
// sorting proxy would otherwise handle on its own. The blocks cover exactly the changed
// cells, never more: a dataChanged on a cell the user is editing would reset the editor.
//
// A table without editors can say so (Precision::ReadOnly): then a refresh that would
// need more than `readOnlyBlockLimit` blocks signals one block around all its changed
// cells instead. A busy group's refresh breaks its runs differently in every row
// (committed moved here, log end there) and made thousands of blocks, each a walk and
// allocations in the sorting proxy and the view; repainting an unchanged cell inside the
// one block costs nothing visible.
class ChangedCellBlocks {
public:
    // Receives each finished block: rows and columns, inclusive.
    using Emit = std::function<void(int firstRow, int lastRow, int firstColumn, int lastColumn)>;
    enum class Precision { ExactCells, ReadOnly };
    static constexpr int readOnlyBlockLimit = 64;

    explicit ChangedCellBlocks(Emit emitBlock, Precision precision = Precision::ExactCells)
        : m_emit(std::move(emitBlock))
        , m_precision(precision) {}
    ~ChangedCellBlocks() { flush(); }
    ChangedCellBlocks(const ChangedCellBlocks&) = delete;
    ChangedCellBlocks& operator=(const ChangedCellBlocks&) = delete;

    // The changed cells of `row`, one flag per column. Rows must come in ascending order.
    void addRow(int row, const ChangedColumns& changedColumns) {
        QVarLengthArray<Block, 8> stillOpen;
        for (int first = 0; first < changedColumns.size(); ++first) {
            if (!changedColumns[first])
                continue;
            int last = first;
            while (last + 1 < changedColumns.size() && changedColumns[last + 1])
                ++last;
            stillOpen.append(continued(row, first, last));
            first = last;
        }
        // Blocks this row did not continue are complete.
        for (const Block& block : std::as_const(m_open))
            finished(block);
        m_open = stillOpen;
    }

    void flush() {
        for (const Block& block : std::as_const(m_open))
            finished(block);
        m_open.clear();
        if (m_precision == Precision::ExactCells)
            return;
        if (m_held.size() > readOnlyBlockLimit)
            emitBlock(m_bounds);
        else
            for (const Block& block : std::as_const(m_held))
                emitBlock(block);
        m_held.clear();
    }

private:
    struct Block {
        int firstRow;
        int lastRow;
        int firstColumn;
        int lastColumn;
    };

    void emitBlock(const Block& block) {
        m_emit(block.firstRow, block.lastRow, block.firstColumn, block.lastColumn);
    }

    // Exact blocks go out at once; read-only ones wait for flush() to know how many.
    void finished(const Block& block) {
        if (m_precision == Precision::ExactCells) {
            emitBlock(block);
            return;
        }
        if (m_held.isEmpty())
            m_bounds = block;
        m_bounds = {std::min(m_bounds.firstRow, block.firstRow),
                    std::max(m_bounds.lastRow, block.lastRow),
                    std::min(m_bounds.firstColumn, block.firstColumn),
                    std::max(m_bounds.lastColumn, block.lastColumn)};
        // Past the limit only the bounds count; one more held block says "past it".
        if (m_held.size() <= readOnlyBlockLimit)
            m_held.append(block);
    }

    // The open block for this run of columns extended by `row` (taken out of m_open), or
    // a new one.
    Block continued(int row, int firstColumn, int lastColumn) {
        for (qsizetype i = 0; i < m_open.size(); ++i) {
            const Block& block = m_open.at(i);
            if (block.firstColumn == firstColumn && block.lastColumn == lastColumn &&
                block.lastRow == row - 1) {
                Block extended = block;
                extended.lastRow = row;
                m_open.remove(i);
                return extended;
            }
        }
        return {row, row, firstColumn, lastColumn};
    }

    Emit m_emit;
    Precision m_precision;
    QVarLengthArray<Block, 8> m_open; // the blocks the last row continued
    QList<Block> m_held;              // read-only: finished, waiting for flush()
    Block m_bounds{};                 // read-only: around every held block
};

} // namespace groupscope::ui
