// KeyedTableModel's diff, against a plain recomputation: for random refreshes (rows that
// vanish, appear, stay with or without changes, and rows a subclass keeps), the model ends
// up with exactly the expected rows in key order, its structural signals are consistent
// (QAbstractItemModelTester, persistent indexes follow their rows), and dataChanged covers
// every changed cell and no unchanged one.

#include "models/KeyedTableModel.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>

#include <algorithm>

namespace {

struct Row {
    QString key;
    int value = 0;
    bool kept = false; // stays although a refresh no longer has it, like a user's edit
};

class RowModel : public groupscope::ui::KeyedTableModel<Row, QString> {
public:
    enum Column { KeyColumn, ValueColumn, KeptColumn, ColumnCount };

    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || role != Qt::DisplayRole)
            return {};
        const Row& row = m_rows.at(index.row());
        switch (index.column()) {
        case KeyColumn:
            return row.key;
        case ValueColumn:
            return row.value;
        default:
            return row.kept;
        }
    }
    void show(const QList<Row>& rows) { applyRows(rows); }

protected:
    const QString& keyOf(const Row& row) const override { return row.key; }
    bool sameCell(const Row& shown, const Row& fresh, int column) const override {
        switch (column) {
        case KeyColumn:
            return shown.key == fresh.key;
        case ValueColumn:
            return shown.value == fresh.value;
        default:
            return shown.kept == fresh.kept;
        }
    }
    bool keepsVanished(const Row& shown) const override { return shown.kept; }
};

QString keyName(int index) {
    return QStringLiteral("k%1").arg(index, 3, 10, QLatin1Char('0'));
}

// A random refresh: a random subset of 40 keys, in random order, with random values.
QList<Row> randomRows(QRandomGenerator& random) {
    QList<Row> rows;
    for (int key = 0; key < 40; ++key)
        if (random.bounded(3) != 0)
            rows.append({keyName(key), int(random.bounded(4)), random.bounded(6) == 0});
    std::shuffle(rows.begin(), rows.end(), random);
    return rows;
}

// What the model must show after `fresh` replaces `shown`: the fresh rows plus the shown
// rows the model keeps, in key order.
QList<Row> expectedRows(const QList<Row>& shown, const QList<Row>& fresh) {
    QList<Row> expected = fresh;
    QSet<QString> freshKeys;
    for (const Row& row : fresh)
        freshKeys.insert(row.key);
    for (const Row& row : shown)
        if (row.kept && !freshKeys.contains(row.key))
            expected.append(row);
    std::sort(expected.begin(), expected.end(),
              [](const Row& a, const Row& b) { return a.key < b.key; });
    return expected;
}

QList<Row> shownRows(const RowModel& model) {
    QList<Row> rows;
    for (int row = 0; row < model.rowCount(); ++row)
        rows.append(model.rowAt(row));
    return rows;
}

} // namespace

class TestKeyedTableModel : public QObject {
    Q_OBJECT

private slots:
    void randomRefreshesGiveTheExpectedRowsAndSignals() {
        RowModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSet<std::pair<int, int>> signalled; // (row, column) of each dataChanged cell
        connect(&model, &QAbstractItemModel::dataChanged, this,
                [&](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                    for (int row = topLeft.row(); row <= bottomRight.row(); ++row)
                        for (int column = topLeft.column(); column <= bottomRight.column();
                             ++column)
                            signalled.insert({row, column});
                });
        QRandomGenerator random(20261129);
        for (int refresh = 0; refresh < 300; ++refresh) {
            const QList<Row> before = shownRows(model);
            QList<QPersistentModelIndex> persistent;
            for (int row = 0; row < model.rowCount(); ++row)
                persistent.append(model.index(row, RowModel::KeyColumn));
            const QList<Row> fresh = randomRows(random);
            const QList<Row> expected = expectedRows(before, fresh);

            signalled.clear();
            model.show(fresh);

            const QList<Row> after = shownRows(model);
            QCOMPARE(after.size(), expected.size());
            for (qsizetype row = 0; row < after.size(); ++row) {
                QCOMPARE(after.at(row).key, expected.at(row).key);
                QCOMPARE(after.at(row).value, expected.at(row).value);
                QCOMPARE(after.at(row).kept, expected.at(row).kept);
            }
            // Each shown row's persistent index still names its key, or is gone with it.
            for (qsizetype i = 0; i < persistent.size(); ++i) {
                const QString key = before.at(i).key;
                const int now = model.rowOfKey(key);
                QCOMPARE(persistent.at(i).isValid(), now >= 0);
                if (now >= 0)
                    QCOMPARE(persistent.at(i).row(), now);
            }
            // dataChanged names exactly the changed cells of the rows that stayed.
            QSet<std::pair<int, int>> changed;
            for (const Row& old : before) {
                const int now = model.rowOfKey(old.key);
                if (now < 0)
                    continue;
                const Row& current = model.rowAt(now);
                if (old.value != current.value)
                    changed.insert({now, RowModel::ValueColumn});
                if (old.kept != current.kept)
                    changed.insert({now, RowModel::KeptColumn});
            }
            QCOMPARE(signalled, changed);
        }
    }
};

QTEST_GUILESS_MAIN(TestKeyedTableModel)
#include "TestKeyedTableModel.moc"
