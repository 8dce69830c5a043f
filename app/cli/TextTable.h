#pragma once

#include <QStringList>
#include <QTextStream>

namespace groupscope::cli {

// Left-aligned columns padded to the widest cell, as kafka-consumer-groups prints them.
class TextTable {
public:
    explicit TextTable(QStringList header)
        : m_header(std::move(header)) {}
    void addRow(QStringList cells) { m_rows.append(std::move(cells)); }
    void print(QTextStream& out) const;

private:
    QStringList m_header;
    QList<QStringList> m_rows;
};

// A cell for text that may be empty: "-", as Kafka's tools print a missing value.
inline QString dashIfEmpty(const QString& text) {
    return text.isEmpty() ? QStringLiteral("-") : text;
}

} // namespace groupscope::cli
