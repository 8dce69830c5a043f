#pragma once

#include "models/ChangedCellBlocks.h"

#include <QAbstractTableModel>

#include <algorithm>
#include <utility>
#include <vector>

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
    // All rows, in key order. A read-only table's list is shared with the value it came from
    // and replaced, never changed, by a refresh (applySharedRows): a copy stays as it is.
    const QList<Row>& rows() const { return m_rows; }

protected:
    // A reference into the row, not a copy: the diff compares keys some 30,000 times for a
    // table of 10,000 rows, and a copied key costs atomic reference counting each time.
    virtual const Key& keyOf(const Row& row) const = 0;
    // Only asked of two rows with the same key.
    virtual bool sameCell(const Row& shown, const Row& fresh, int column) const = 0;
    // The row to show when `fresh` replaces `shown` (same key). Default: the fresh one.
    virtual Row merged(const Row& shown, Row&& fresh) const {
        Q_UNUSED(shown);
        return std::move(fresh);
    }
    // How exactly refreshes signal changed cells: tables with editors need ExactCells
    // (see ChangedCellBlocks), read-only tables save time with ReadOnly.
    virtual ChangedCellBlocks::Precision cellSignalPrecision() const {
        return ChangedCellBlocks::Precision::ExactCells;
    }
    // Whether a shown row whose key is not in the fresh rows stays (e.g. a user edit).
    virtual bool keepsVanished(const Row& shown) const {
        Q_UNUSED(shown);
        return false;
    }

    // Shows `fresh` (any order, unique keys) in place of the current rows. Linear in the
    // number of rows once they are in key order, which snapshots usually already are.
    void applyRows(QList<Row> fresh) {
        // The common refresh: the same keys as shown, in the same order. Then nothing is
        // sorted, kept, removed or inserted, and each key is compared once in all.
        if (hasShownKeysInOrder(fresh)) {
            replaceAllRows(std::move(fresh));
            return;
        }
        const auto keyLess = [this](const Row& a, const Row& b) { return keyOf(a) < keyOf(b); };
        // Checked first because sorting would detach, i.e. copy, a list shared with the
        // snapshot it came from.
        if (!std::is_sorted(fresh.cbegin(), fresh.cend(), keyLess))
            std::sort(fresh.begin(), fresh.end(), keyLess);
        addKeptRows(fresh);
        removeRowsNotIn(fresh);
        updateAndInsertRows(std::move(fresh));
    }

    // For a read-only table whose rows are made elsewhere (on the pipeline's thread) and
    // shared with the value they came from: shows `fresh` (unique keys in key order)
    // without copying a row. `fingerprint(row)` is equal for rows that show the same, so
    // the usual refresh (same keys, same order) is one walk over both lists, comparing each
    // row's key and fingerprint (rows that keep their key's string from poll to poll compare
    // it by pointer), then the cells of the rows whose fingerprints differ. A busy refresh,
    // past ChangedCellBlocks' limit, signals one block around its changed rows, as ReadOnly
    // precision does. Rows are not merged(): such a table has nothing of its own to keep.
    template <typename Fingerprint>
    void applySharedRows(const QList<Row>& fresh, Fingerprint fingerprint) {
        Q_ASSERT(cellSignalPrecision() == ChangedCellBlocks::Precision::ReadOnly);
        if (!findChangedRows(fresh, fingerprint)) {
            applyRows(fresh);
            return;
        }
        const QList<Row> shown = std::exchange(m_rows, fresh);
        if (m_changedRows.empty())
            return;
        if (m_changedRows.size() > size_t(ChangedCellBlocks::readOnlyBlockLimit)) {
            emit this->dataChanged(this->index(m_changedRows.front(), 0),
                                   this->index(m_changedRows.back(), columnCount() - 1));
            return;
        }
        const int columns = columnCount();
        ChangedCellBlocks changes = changedCellSignals();
        for (const int row : m_changedRows) {
            ChangedColumns changed(columns);
            for (int column = 0; column < columns; ++column)
                changed[column] = !sameCell(shown.at(row), m_rows.at(row), column);
            changes.addRow(row, changed);
        }
    }

    // For a model whose fresh data is not rows of its own (e.g. a snapshot's list), which
    // can then update the shown rows in place rather than build and copy 10,000 new ones:
    // whether `fresh` has exactly the shown keys in the shown order, `freshKey(item)`
    // giving an item's key.
    template <typename Fresh, typename FreshKey>
    bool showsKeysInOrder(const QList<Fresh>& fresh, FreshKey freshKey) const {
        if (fresh.size() != m_rows.size())
            return false;
        for (qsizetype row = 0; row < m_rows.size(); ++row)
            if (!(keyOf(m_rows.at(row)) == freshKey(fresh.at(row))))
                return false;
        return true;
    }

    // Calls `update(shownRow, rowNumber)` on every row, which changes the row in place
    // (never its key) and returns the ChangedColumns; signals them as applyRows would.
    template <typename Update> void updateRowsInPlace(Update update) {
        ChangedCellBlocks changes = changedCellSignals();
        for (qsizetype row = 0; row < m_rows.size(); ++row)
            changes.addRow(int(row), update(m_rows[row], int(row)));
    }

    // Replaces one row and signals the runs of cells that changed.
    void updateRow(int row, const Row& fresh) {
        ChangedCellBlocks changes = changedCellSignals();
        changes.addRow(row, replaceRow(row, fresh));
    }

    // Replaces one row without a signal; returns which columns changed.
    ChangedColumns replaceRow(int row, Row fresh) {
        const int columns = columnCount();
        ChangedColumns changed(columns);
        for (int column = 0; column < columns; ++column)
            changed[column] = !sameCell(m_rows.at(row), fresh, column);
        m_rows[row] = std::move(fresh);
        return changed;
    }

    // Emits dataChanged for each block of changed cells it is given.
    ChangedCellBlocks changedCellSignals() {
        return ChangedCellBlocks(
            [this](int firstRow, int lastRow, int firstColumn, int lastColumn) {
                emit this->dataChanged(this->index(firstRow, firstColumn),
                                       this->index(lastRow, lastColumn));
            },
            cellSignalPrecision());
    }

    QList<Row> m_rows;

private:
    // Whether `fresh` has exactly the shown keys in the shown order; if so, m_changedRows
    // holds the rows whose fingerprints differ. One walk over both lists: at 100,000 rows
    // they are far larger than the caches, and a walk for the keys and another for the
    // fingerprints cost twice the memory reads (BenchGuiTenThousandGroups, perf).
    template <typename Fingerprint>
    bool findChangedRows(const QList<Row>& fresh, Fingerprint fingerprint) {
        m_changedRows.clear(); // keeps its capacity: no allocation per refresh
        if (fresh.size() != m_rows.size())
            return false;
        for (qsizetype row = 0; row < fresh.size(); ++row) {
            const Row& shownRow = m_rows.at(row);
            const Row& freshRow = fresh.at(row);
            if (!(keyOf(shownRow) == keyOf(freshRow)))
                return false;
            if (fingerprint(shownRow) != fingerprint(freshRow))
                m_changedRows.push_back(int(row));
        }
        return true;
    }

    // For each shown row, whether its key is in `fresh`; both lists are in key order, so
    // one walk over the two answers it for every row.
    QList<bool> shownKeysIn(const QList<Row>& fresh) const {
        QList<bool> found(m_rows.size(), false);
        qsizetype next = 0;
        for (qsizetype row = 0; row < m_rows.size(); ++row) {
            const Key& key = keyOf(m_rows.at(row));
            while (next < fresh.size() && keyOf(fresh.at(next)) < key)
                ++next;
            found[row] = next < fresh.size() && keyOf(fresh.at(next)) == key;
        }
        return found;
    }

    bool hasShownKeysInOrder(const QList<Row>& fresh) const {
        return showsKeysInOrder(fresh, [this](const Row& row) -> const Key& { return keyOf(row); });
    }

    // Rows that stay although the snapshot no longer has them join `fresh` as they are.
    void addKeptRows(QList<Row>& fresh) const {
        if (std::none_of(m_rows.cbegin(), m_rows.cend(),
                         [this](const Row& shown) { return keepsVanished(shown); }))
            return;
        const QList<bool> inFresh = shownKeysIn(fresh);
        QList<Row> kept;
        for (qsizetype row = 0; row < m_rows.size(); ++row)
            if (!inFresh.at(row) && keepsVanished(m_rows.at(row)))
                kept.append(m_rows.at(row));
        if (kept.isEmpty())
            return;
        QList<Row> all;
        all.reserve(fresh.size() + kept.size());
        std::merge(fresh.cbegin(), fresh.cend(), kept.cbegin(), kept.cend(),
                   std::back_inserter(all),
                   [this](const Row& a, const Row& b) { return keyOf(a) < keyOf(b); });
        fresh = std::move(all);
    }

    // Removes the shown rows whose key is not in `fresh`, a run of rows at a time.
    void removeRowsNotIn(const QList<Row>& fresh) {
        const QList<bool> inFresh = shownKeysIn(fresh);
        for (int last = int(m_rows.size()) - 1; last >= 0; --last) {
            if (inFresh.at(last))
                continue;
            int first = last;
            while (first > 0 && !inFresh.at(first - 1))
                --first;
            beginRemoveRows({}, first, last);
            m_rows.remove(first, last - first + 1);
            endRemoveRows();
            last = first;
        }
    }

    // `fresh` has exactly the shown keys in the shown order: each row is replaced in place.
    void replaceAllRows(QList<Row> fresh) {
        ChangedCellBlocks changes = changedCellSignals();
        for (qsizetype row = 0; row < fresh.size(); ++row)
            changes.addRow(int(row),
                           replaceRow(int(row), merged(m_rows.at(row), std::move(fresh[row]))));
    }

    // With every shown key in `fresh`: updates the rows that stay and inserts the new ones.
    void updateAndInsertRows(QList<Row> fresh) {
        int row = 0;
        // Changed cells are signalled in blocks once the updates are done, before any
        // insertion moves the rows they name.
        ChangedCellBlocks changes = changedCellSignals();
        for (qsizetype next = 0; next < fresh.size();) {
            if (row < m_rows.size() && keyOf(m_rows.at(row)) == keyOf(fresh.at(next))) {
                changes.addRow(row,
                               replaceRow(row, merged(m_rows.at(row), std::move(fresh[next]))));
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
                m_rows.insert(row + int(i - next), std::move(fresh[i]));
            endInsertRows();
            row += count;
            next = end;
        }
    }

    std::vector<int> m_changedRows; // applySharedRows' rows whose fingerprints differ
};

} // namespace groupscope::ui
