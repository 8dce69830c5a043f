#pragma once

#include "models/ChangedCellBlocks.h"

#include <QAbstractTableModel>

#include <algorithm>

namespace groupscope::ui {

// A table whose rows are identified by a key and kept in key order, updated from value
// snapshots as a diff: vanished keys are removed, new keys inserted, and of the rows that
// stay only the cells that differ get dataChanged. Views therefore keep their selection,
// scroll position and open editors across refreshes (DESIGN.md, "Snapshots are values").
//
// Subclasses say what a row's key is, which cells differ, and how a fresh row is merged
// with the one already shown (the offsets table keeps the user's edits that way).
template <typename Row, typename Key> class KeyedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(m_rows.size());
    }

    // The row of a key, or -1.
    int rowOfKey(const Key& key) const {
        const auto found =
            std::lower_bound(m_rows.cbegin(), m_rows.cend(), key,
                             [this](const Row& row, const Key& k) { return keyOf(row) < k; });
        return found != m_rows.cend() && keyOf(*found) == key ? int(found - m_rows.cbegin()) : -1;
    }
    const Row& rowAt(int row) const { return m_rows.at(row); }

protected:
    virtual Key keyOf(const Row& row) const = 0;
    virtual bool sameCell(const Row& shown, const Row& fresh, int column) const = 0;
    // The row to show when `fresh` replaces `shown` (same key). Default: the fresh one.
    virtual Row merged(const Row& shown, const Row& fresh) const {
        Q_UNUSED(shown);
        return fresh;
    }
    // Whether a shown row whose key is not in the fresh rows stays (e.g. a user edit).
    virtual bool keepsVanished(const Row& shown) const {
        Q_UNUSED(shown);
        return false;
    }

    void applyRows(QList<Row> fresh) {
        std::sort(fresh.begin(), fresh.end(),
                  [this](const Row& a, const Row& b) { return keyOf(a) < keyOf(b); });
        // Rows that stay although the snapshot no longer has them join the fresh list as is.
        for (const Row& shown : std::as_const(m_rows))
            if (keepsVanished(shown) && !containsKey(fresh, keyOf(shown)))
                fresh.insert(lowerBound(fresh, keyOf(shown)), shown);

        for (int last = int(m_rows.size()) - 1; last >= 0; --last) {
            if (containsKey(fresh, keyOf(m_rows.at(last))))
                continue;
            int first = last;
            while (first > 0 && !containsKey(fresh, keyOf(m_rows.at(first - 1))))
                --first;
            beginRemoveRows({}, first, last);
            m_rows.remove(first, last - first + 1);
            endRemoveRows();
            last = first;
        }
        int row = 0;
        // Changed cells are signalled in blocks once the updates are done, before any
        // insertion moves the rows they name.
        ChangedCellBlocks changes(
            [this](int firstRow, int lastRow, int firstColumn, int lastColumn) {
                emit this->dataChanged(this->index(firstRow, firstColumn),
                                       this->index(lastRow, lastColumn));
            });
        for (qsizetype next = 0; next < fresh.size();) {
            if (row < m_rows.size() && keyOf(m_rows.at(row)) == keyOf(fresh.at(next))) {
                const Row next_ = merged(m_rows.at(row), fresh.at(next));
                changes.addRow(row, replaceRow(row, next_));
                ++row;
                ++next;
                continue;
            }
            changes.flush();
            qsizetype end = next;
            while (end < fresh.size() &&
                   (row >= m_rows.size() || keyOf(fresh.at(end)) != keyOf(m_rows.at(row))))
                ++end;
            const int count = int(end - next);
            beginInsertRows({}, row, row + count - 1);
            for (qsizetype i = next; i < end; ++i)
                m_rows.insert(row + int(i - next), fresh.at(i));
            endInsertRows();
            row += count;
            next = end;
        }
    }

    // Replaces one row and signals the runs of cells that changed.
    void updateRow(int row, const Row& fresh) {
        ChangedCellBlocks changes(
            [this](int firstRow, int lastRow, int firstColumn, int lastColumn) {
                emit this->dataChanged(this->index(firstRow, firstColumn),
                                       this->index(lastRow, lastColumn));
            });
        changes.addRow(row, replaceRow(row, fresh));
    }

    // Replaces one row without a signal; returns which columns changed.
    QList<bool> replaceRow(int row, const Row& fresh) {
        const int columns = columnCount();
        QList<bool> changed(columns);
        for (int column = 0; column < columns; ++column)
            changed[column] = !sameCell(m_rows.at(row), fresh, column);
        m_rows[row] = fresh;
        return changed;
    }

    QList<Row> m_rows;

private:
    typename QList<Row>::iterator lowerBound(QList<Row>& rows, const Key& key) const {
        return std::lower_bound(rows.begin(), rows.end(), key,
                                [this](const Row& row, const Key& k) { return keyOf(row) < k; });
    }
    bool containsKey(const QList<Row>& rows, const Key& key) const {
        const auto found =
            std::lower_bound(rows.cbegin(), rows.cend(), key,
                             [this](const Row& row, const Key& k) { return keyOf(row) < k; });
        return found != rows.cend() && keyOf(*found) == key;
    }
};

} // namespace groupscope::ui
