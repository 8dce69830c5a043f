#include "cli/IndentedJsonWriter.h"

namespace groupscope::cli {

namespace {

char hexDigit(unsigned value) {
    return "0123456789abcdef"[value & 0xf];
}

} // namespace

void IndentedJsonWriter::indent(qsizetype depth) {
    m_text.append(depth * 4, ' ');
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
    m_text.append('"');
    m_text.append(name.data(), name.size());
    m_text.append("\": ");
    m_afterKey = true;
}

void IndentedJsonWriter::beginContainer(char opening) {
    beginValue();
    m_text.append(opening);
    m_text.append('\n');
    m_valuesPerLevel.append(0);
}

void IndentedJsonWriter::endContainer(char closing) {
    // Qt ends the last value with a newline; an empty container is "[", newline, "]".
    if (m_valuesPerLevel.takeLast() > 0)
        m_text.append('\n');
    indent(m_valuesPerLevel.size());
    m_text.append(closing);
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
    m_text.append('"');
    appendEscaped(text);
    m_text.append('"');
}

void IndentedJsonWriter::appendEscaped(const QString& text) {
    const char16_t* position = reinterpret_cast<const char16_t*>(text.utf16());
    const char16_t* const end = position + text.size();
    while (position != end) {
        const char16_t unit = *position;
        if (unit >= 0x80) {
            // A run of non-ASCII text goes out as UTF-8, as Qt writes it; a lone surrogate
            // (no character at all) as a \u escape.
            const char16_t* runEnd = position;
            while (runEnd != end && *runEnd >= 0x80)
                ++runEnd;
            for (const char16_t* unitInRun = position; unitInRun != runEnd;) {
                const bool pair = QChar::isHighSurrogate(*unitInRun) && unitInRun + 1 != runEnd &&
                                  QChar::isLowSurrogate(unitInRun[1]);
                if (QChar::isSurrogate(*unitInRun) && !pair) {
                    m_text.append("\\u");
                    for (int shift = 12; shift >= 0; shift -= 4)
                        m_text.append(hexDigit(unsigned(*unitInRun) >> shift));
                    ++unitInRun;
                    continue;
                }
                const qsizetype length = pair ? 2 : 1;
                m_text.append(QStringView(unitInRun, length).toUtf8());
                unitInRun += length;
            }
            position = runEnd;
            continue;
        }
        ++position;
        if (unit >= 0x20 && unit != u'"' && unit != u'\\') {
            m_text.append(char(unit));
            continue;
        }
        m_text.append('\\');
        switch (unit) {
        case u'"':
            m_text.append('"');
            break;
        case u'\\':
            m_text.append('\\');
            break;
        case u'\b':
            m_text.append('b');
            break;
        case u'\f':
            m_text.append('f');
            break;
        case u'\n':
            m_text.append('n');
            break;
        case u'\r':
            m_text.append('r');
            break;
        case u'\t':
            m_text.append('t');
            break;
        default:
            m_text.append("u00");
            m_text.append(hexDigit(unit >> 4));
            m_text.append(hexDigit(unit));
        }
    }
}

void IndentedJsonWriter::number(int64_t value) {
    beginValue();
    m_text.append(QByteArray::number(qint64(value)));
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

void IndentedJsonWriter::field(QLatin1StringView name, int64_t value) {
    key(name);
    number(value);
}

QByteArray IndentedJsonWriter::finish() {
    m_text.append('\n');
    return std::move(m_text);
}

} // namespace groupscope::cli
