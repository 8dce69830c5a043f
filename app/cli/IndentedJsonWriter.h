#pragma once

#include <QByteArray>
#include <QLatin1StringView>
#include <QList>
#include <QString>

#include <cstdint>
#include <string>

namespace groupscope::cli {

// Writes JSON text straight into a byte buffer, in exactly the layout of Qt's
// QJsonDocument::toJson(QJsonDocument::Indented): four spaces per level, `"key": value`,
// and Qt's escaping. `describe --all-groups --json` uses it because building a QJsonObject
// tree for 10,000 partitions and converting it took longer than asking Kafka for them.
//
// The caller writes an object's keys in sorted order, as QJsonObject keeps them, so that
// the text is the same as Qt would print; TestIndentedJsonWriter checks both against Qt.
class IndentedJsonWriter {
public:
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    // The next value is the one of this key, in the object being written.
    void key(QLatin1StringView name);
    void string(const QString& text);
    void number(int64_t value);
    void boolean(bool value);
    void null();

    // key() and a value together; an empty string or a missing value is written as null.
    void field(QLatin1StringView name, const QString& text);
    void fieldOrNull(QLatin1StringView name, const QString& text);
    void field(QLatin1StringView name, int64_t value);
    // A JSON true/false (without it a bool would pick the int64_t overload: 0/1).
    void booleanField(QLatin1StringView name, bool value);

    // The text written so far, with the final newline Qt ends a document with.
    QByteArray finish();
    // The text written since the last call, for a caller that writes the document out in
    // pieces (hundreds of megabytes at 100,000 groups); finish() then returns the rest.
    QByteArray takeWritten();
    qsizetype writtenSize() const { return qsizetype(m_text.size()); }

private:
    // Separator and indentation before a value, unless it follows its key.
    void beginValue();
    void beginContainer(char opening);
    void endContainer(char closing);
    void indent(qsizetype depth);
    void appendEscaped(const QString& text);

    std::string m_text;          // appends inline: QByteArray's cost a tenth of a large describe
    QList<int> m_valuesPerLevel; // values written so far in each open container
    bool m_afterKey = false;
};

} // namespace groupscope::cli
