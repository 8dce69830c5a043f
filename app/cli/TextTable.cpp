#include "cli/TextTable.h"

namespace groupscope::cli {

void TextTable::print(QTextStream& out) const {
    QList<qsizetype> widths;
    for (const QString& title : m_header)
        widths.append(title.size());
    for (const QStringList& row : m_rows)
        for (qsizetype column = 0; column < row.size() && column < widths.size(); ++column)
            widths[column] = std::max(widths[column], row[column].size());
    auto printLine = [&](const QStringList& cells) {
        QString line;
        for (qsizetype column = 0; column < cells.size(); ++column) {
            const bool last = column + 1 == cells.size();
            line += last ? cells[column] : cells[column].leftJustified(widths[column] + 1);
        }
        out << line << u'\n';
    };
    printLine(m_header);
    for (const QStringList& row : m_rows)
        printLine(row);
}

} // namespace groupscope::cli
