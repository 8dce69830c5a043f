#include "cli/IndentedJsonWriter.h"

#include <charconv>
#include <string_view>

namespace groupscope::cli {

namespace {

char hexDigit(unsigned value) {
    return "0123456789abcdef"[value & 0xf];
}

} // namespace

void IndentedJsonWriter::indent(qsizetype depth) {
    m_text.append(size_t(depth) * 4, ' ');
}

void IndentedJsonWriter::beginValue() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_valuesPerLevel.isEmpty())
        return; // the document's top-level value
    if (m_valuesPerLevel.last()++ > 0)
        m_text.append(",\n");
    indent(m_valuesPerLevel.size());
}

void IndentedJsonWriter::key(QLatin1StringView name) {
    if (m_valuesPerLevel.last()++ > 0)
        m_text.append(",\n");
    indent(m_valuesPerLevel.size());
    m_text += '"';
    m_text.append(name.data(), size_t(name.size()));
    m_text.append("\": ");
    m_afterKey = true;
}

void IndentedJsonWriter::beginContainer(char opening) {
    beginValue();
    m_text += opening;
    m_text += '\n';
    m_valuesPerLevel.append(0);
}

void IndentedJsonWriter::endContainer(char closing) {
    // Qt ends the last value with a newline; an empty container is "[", newline, "]".
    if (m_valuesPerLevel.takeLast() > 0)
        m_text += '\n';
    indent(m_valuesPerLevel.size());
    m_text += closing;
}

void IndentedJsonWriter::beginObject() {
    beginContainer('{');
}

void IndentedJsonWriter::endObject() {
    endContainer('}');
}

void IndentedJsonWriter::beginArray() {
    beginContainer('[');
}

void IndentedJsonWriter::endArray() {
    endContainer(']');
}

void IndentedJsonWriter::string(const QString& text) {
    beginValue();
    m_text += '"';
    appendEscaped(text);
    m_text += '"';
}

void IndentedJsonWriter::appendEscaped(const QString& text) {
    // JSON's two-character escapes, as Qt uses them; other control characters are \u00XX.
    static constexpr std::string_view escaped = "\"\\\b\f\n\r\t";
    static constexpr std::string_view escapeLetters = "\"\\bfnrt";
    const auto* units = reinterpret_cast<const char16_t*>(text.utf16());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t unit = units[i];
        if (unit >= 0x80) {
            // Non-ASCII text goes out as UTF-8, as Qt writes it; a lone surrogate (no
            // character at all) as a \u escape.
            const bool pair = QChar::isHighSurrogate(unit) && i + 1 < text.size() &&
                              QChar::isLowSurrogate(units[i + 1]);
            if (QChar::isSurrogate(unit) && !pair) {
                m_text.append("\\u");
                for (int shift = 12; shift >= 0; shift -= 4)
                    m_text += hexDigit(unsigned(unit) >> shift);
            } else {
                const QByteArray utf8 = QStringView(units + i, pair ? 2 : 1).toUtf8();
                m_text.append(utf8.constData(), size_t(utf8.size()));
                i += pair ? 1 : 0;
            }
        } else if (const size_t at = escaped.find(char(unit)); at != std::string_view::npos) {
            m_text += '\\';
            m_text += escapeLetters[at];
        } else if (unit < 0x20) {
            m_text.append("\\u00");
            m_text += hexDigit(unit >> 4);
            m_text += hexDigit(unit);
        } else {
            m_text += char(unit);
        }
    }
}

void IndentedJsonWriter::number(int64_t value) {
    beginValue();
    char digits[24];
    const auto written = std::to_chars(digits, digits + sizeof digits, value);
    m_text.append(digits, written.ptr);
}

void IndentedJsonWriter::null() {
    beginValue();
    m_text.append("null");
}

void IndentedJsonWriter::field(QLatin1StringView name, const QString& text) {
    key(name);
    string(text);
}

void IndentedJsonWriter::fieldOrNull(QLatin1StringView name, const QString& text) {
    key(name);
    if (text.isEmpty())
        null();
    else
        string(text);
}

void IndentedJsonWriter::boolean(bool value) {
    beginValue();
    m_text.append(value ? "true" : "false");
}

void IndentedJsonWriter::booleanField(QLatin1StringView name, bool value) {
    key(name);
    boolean(value);
}

void IndentedJsonWriter::field(QLatin1StringView name, int64_t value) {
    key(name);
    number(value);
}

QByteArray IndentedJsonWriter::finish() {
    m_text += '\n';
    return takeWritten();
}

QByteArray IndentedJsonWriter::takeWritten() {
    QByteArray piece(m_text.data(), qsizetype(m_text.size()));
    m_text.clear(); // keeps its capacity for the next piece
    return piece;
}

} // namespace groupscope::cli
