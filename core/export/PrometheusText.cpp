#include "export/PrometheusText.h"

#include <charconv>

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace groupscope::exporter {

namespace {

const char* typeName(MetricType type) {
    switch (type) {
    case MetricType::Gauge:
        return "gauge";
    case MetricType::Counter:
        return "counter";
    case MetricType::Untyped:
        break;
    }
    return "untyped";
}

bool isNameStart(char c, bool colonAllowed) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (colonAllowed && c == ':');
}

bool isValidName(const char* name, bool colonAllowed) {
    if (!name || !isNameStart(name[0], colonAllowed))
        return false;
    for (const char* c = name + 1; *c; ++c)
        if (!isNameStart(*c, colonAllowed) && !(*c >= '0' && *c <= '9'))
            return false;
    return true;
}

void appendEscaped(QByteArray& text, char c) {
    if (c == '\\')
        text.append("\\\\");
    else if (c == '"')
        text.append("\\\"");
    else if (c == '\n')
        text.append("\\n");
    else
        text.append(c);
}

} // namespace

bool PrometheusTextWriter::isValidMetricName(const char* name) {
    return isValidName(name, true);
}

bool PrometheusTextWriter::isValidLabelName(const char* name) {
    // Names beginning with __ are reserved for Prometheus itself.
    return isValidName(name, false) && std::strncmp(name, "__", 2) != 0;
}

void PrometheusTextWriter::appendEscapedLabelValue(QByteArray& text, QStringView value) {
    // Group, topic and client names are ASCII nearly always: those are copied a character at
    // a time without a UTF-8 copy of the whole value (a refresh writes millions).
    for (qsizetype i = 0; i < value.size(); ++i) {
        const char16_t c = value[i].unicode();
        if (c >= 0x80) {
            const QByteArray utf8 = value.mid(i).toUtf8();
            for (const char byte : utf8)
                appendEscaped(text, byte);
            return;
        }
        appendEscaped(text, char(c));
    }
}

QByteArray PrometheusTextWriter::escapeHelp(const QString& help) {
    const QByteArray utf8 = help.toUtf8();
    QByteArray escaped;
    escaped.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            escaped.append("\\\\");
        else if (c == '\n')
            escaped.append("\\n");
        else
            escaped.append(c);
    }
    return escaped;
}

QByteArray PrometheusTextWriter::formatValue(double value) {
    char digits[maxValueBytes];
    return QByteArray(digits, writeValue(digits, value) - digits);
}

char* PrometheusTextWriter::writeValue(char* out, double value) {
    const auto copied = [out](QByteArrayView text) {
        return std::copy(text.begin(), text.end(), out);
    };
    if (std::isnan(value))
        return copied("NaN");
    if (std::isinf(value))
        return copied(value > 0 ? "+Inf" : "-Inf");
    if (value == std::floor(value) && std::fabs(value) < 9.007199254740992e15) {
        // Whole numbers as integers (offsets, lags, counts), written in place: a refresh
        // writes millions of them.
        return std::to_chars(out, out + maxValueBytes, qint64(value)).ptr;
    }
    // Everything else round-trips (at most 24 characters: -2.2250738585072014e-308).
    return copied(QByteArray::number(value, 'g', QLocale::FloatingPointShortest));
}

void PrometheusTextWriter::beginFamily(const char* name, const QString& help, MetricType type) {
    Q_ASSERT(isValidMetricName(name));
    m_family = QByteArray(name);
    m_text.append("# HELP ").append(m_family).append(' ').append(escapeHelp(help)).append('\n');
    m_text.append("# TYPE ").append(m_family).append(' ').append(typeName(type)).append('\n');
    spillIfFull();
}

void PrometheusTextWriter::spillEvery(qsizetype bytes, std::function<void(QByteArrayView)> spill) {
    m_spillAt = bytes;
    m_spill = std::move(spill);
    m_text.reserve(bytes + 64 * 1024); // a sample or two past the mark
}

void PrometheusTextWriter::spillIfFull() {
    if (m_spill && m_text.size() >= m_spillAt) {
        m_spill(m_text);
        m_text.resize(0); // keeps its capacity for the next piece
    }
}

QByteArray PrometheusTextWriter::take() {
    if (m_spill && !m_text.isEmpty()) {
        m_spill(m_text);
        m_text.resize(0);
    }
    return std::move(m_text);
}

QByteArray PrometheusTextWriter::labelSet(const QList<MetricLabel>& labels) {
    QByteArray text;
    appendLabels(text, labels);
    if (text.isEmpty())
        return text;
    text[0] = '{'; // the first label's comma
    text.append('}');
    return text;
}

void PrometheusTextWriter::appendLabels(QByteArray& text, const QList<MetricLabel>& labels) {
    for (const MetricLabel& label : labels) {
        if (label.value.isEmpty())
            continue;
        Q_ASSERT(isValidLabelName(label.name));
        text.append(',').append(label.name).append("=\"");
        appendEscapedLabelValue(text, label.value);
        text.append('"');
    }
}

void PrometheusTextWriter::sample(QByteArrayView labelSet, double value) {
    // Room for the line, then the line copied in place and the rest cut off: a render writes
    // millions of samples, and each QByteArray::append is a call of its own with its checks.
    const qsizetype start = m_text.size();
    m_text.resize(start + m_family.size() + labelSet.size() + maxValueBytes + 2);
    char* out = m_text.data() + start;
    out = std::copy(m_family.cbegin(), m_family.cend(), out);
    out = std::copy(labelSet.begin(), labelSet.end(), out);
    *out++ = ' ';
    out = writeValue(out, value);
    *out++ = '\n';
    m_text.truncate(out - m_text.constData());
    spillIfFull();
}

void PrometheusTextWriter::sample(const QList<MetricLabel>& labels, double value) {
    sample(labelSet(labels), value);
}

} // namespace groupscope::exporter
