#pragma once
// Prometheus' text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): one family after another,
// each a HELP line, a TYPE line and its samples. The writer only escapes and formats; what
// the families are is the caller's table (ClusterMetrics).

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <cstdint>
#include <functional>

namespace groupscope::exporter {

enum class MetricType { Gauge, Counter, Untyped };

struct MetricLabel {
    const char* name; // a valid label name: [a-zA-Z_][a-zA-Z0-9_]*
    QString value;
};

class PrometheusTextWriter {
public:
    static constexpr const char* contentType = "text/plain; version=0.0.4; charset=utf-8";

    // Starts a family: `# HELP name help` and `# TYPE name type`. Families must not repeat.
    void beginFamily(const char* name, const QString& help, MetricType type);
    // One sample of the family begun last: `name{labels} value`. Labels with an empty value
    // are left out, which is the same series to Prometheus. Values are doubles, as Prometheus
    // keeps them: offsets above 2^53 lose their last digits there anyway.
    void sample(const QList<MetricLabel>& labels, double value);
    // The same with the `{...}` part made once by labelSet(), for a row that is a sample of
    // several families.
    void sample(QByteArrayView labelSet, double value);
    static QByteArray labelSet(const QList<MetricLabel>& labels);
    // The labels as `,name="value"` each (those with an empty value left out), appended to
    // `text`: a piece of a label set, for label sets built from pieces that rows share.
    static void appendLabels(QByteArray& text, const QList<MetricLabel>& labels);

    // Hands the text written so far to `spill` each time it reaches `bytes` (and what is left
    // when `take` is called), so that a large render never holds its whole text: the exporter
    // deflates each piece as it comes.
    void spillEvery(qsizetype bytes, std::function<void(QByteArrayView)> spill);
    // The text not spilled, after spilling it if a spill is set.
    QByteArray take();

    // Label values escape backslash, double quote and line feed; HELP text escapes backslash
    // and line feed only.
    static void appendEscapedLabelValue(QByteArray& text, QStringView value);
    static QByteArray escapeHelp(const QString& help);
    // Shortest text that reads back as the same double; NaN, +Inf and -Inf as Go spells them.
    static QByteArray formatValue(double value);
    // The same written at `out`, which has room for maxValueBytes; returns the end.
    static char* writeValue(char* out, double value);
    static constexpr qsizetype maxValueBytes = 32;
    static bool isValidMetricName(const char* name);
    static bool isValidLabelName(const char* name);

private:
    void spillIfFull();

    QByteArray m_text;
    QByteArray m_family; // name of the family begun last
    std::function<void(QByteArrayView)> m_spill;
    qsizetype m_spillAt = 0;
};

} // namespace groupscope::exporter
