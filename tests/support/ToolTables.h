#pragma once
// Reading the tables Kafka's group tools and groupscope-cli print, to compare them cell by
// cell: no cell of these tables holds a space, so splitting on whitespace gives the cells.

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace groupscope::test {

// The rows whose first cell is `group`, split into cells, in the order printed.
inline QList<QStringList> tableRowsOf(const QByteArray& output, const QString& group) {
    QList<QStringList> rows;
    for (const QByteArray& line : output.split('\n')) {
        const QStringList cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
        if (!cells.isEmpty() && cells.first() == group)
            rows.append(cells);
    }
    return rows;
}

// The column names of the first table (its header starts with GROUP).
inline QStringList tableHeaderOf(const QByteArray& output) {
    for (const QByteArray& line : output.split('\n'))
        if (line.startsWith("GROUP "))
            return QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
    return {};
}

} // namespace groupscope::test
