#pragma once

#include <QList>
#include <QVarLengthArray>

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
class ChangedCellBlocks {
public:
    // Receives each finished block: rows and columns, inclusive.
    using Emit = std::function<void(int firstRow, int lastRow, int firstColumn, int lastColumn)>;

    explicit ChangedCellBlocks(Emit emitBlock)
        : m_emit(std::move(emitBlock)) {}
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
            m_emit(block.firstRow, block.lastRow, block.firstColumn, block.lastColumn);
        m_open = stillOpen;
    }

    void flush() {
        for (const Block& block : std::as_const(m_open))
            m_emit(block.firstRow, block.lastRow, block.firstColumn, block.lastColumn);
        m_open.clear();
    }

private:
    struct Block {
        int firstRow;
        int lastRow;
        int firstColumn;
        int lastColumn;
    };

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
    QVarLengthArray<Block, 8> m_open;
};

} // namespace groupscope::ui
