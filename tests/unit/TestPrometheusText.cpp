// The exporter's text: Prometheus' exposition format (escaping, HELP/TYPE, value spelling),
// and the families rendered from a ClusterView built by the live pipeline's builder on a
// manual clock (no commit is not lag 0, one log row per partition, the group filter, the
// per-partition time lag equal to the watched detail's, staleness and up).

#include "MetricsBodyText.h"
#include "WholePoll.h"
#include "export/ClusterMetrics.h"
#include "export/DeflatedText.h"
#include "export/MetricsExporter.h"
#include "export/MetricsRender.h"
#include "export/PrometheusText.h"
#include "monitor/ClusterViewBuilder.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

#include <zlib.h>

using namespace groupscope;
using exporter::PrometheusTextWriter;
using monitor::GroupSnapshot;
using namespace std::chrono_literals;

namespace {

monitor::PartitionSnapshot row(const QString& topic, int partition,
                               std::optional<int64_t> committed, int64_t logEnd) {
    monitor::PartitionSnapshot snapshot;
    snapshot.topicPartition = {topic, partition};
    snapshot.committedOffset = committed;
    snapshot.logStartOffset = 0;
    snapshot.logEndOffset = logEnd;
    if (committed)
        snapshot.lag = logEnd - *committed;
    return snapshot;
}

GroupSnapshot group(const QString& id, QList<monitor::PartitionSnapshot> partitions) {
    GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = kafka::GroupState::Stable;
    snapshot.description.type = kafka::GroupType::Classic;
    snapshot.description.protocolType = QStringLiteral("consumer");
    snapshot.partitions = std::move(partitions);
    return snapshot;
}

// The view's families as the exporter writes them, one after another in one piece: the
// text the renderer's threads make in parts and join.
QByteArray render(const monitor::ClusterView& view, const exporter::ExportOptions& options,
                  int* groups = nullptr) {
    const exporter::MetricsRender metrics(view, options);
    PrometheusTextWriter writer;
    for (qsizetype family = 0; family < metrics.familyCount(); ++family)
        metrics.writeFamily(family, writer);
    if (groups)
        *groups = metrics.groupCount();
    return writer.take();
}

// `text` deflated as the renderer does it, handed over 10,000 bytes at a time.
exporter::DeflatedText deflatedInPieces(const QByteArray& text) {
    exporter::DeflatedTextWriter writer;
    for (qsizetype at = 0; at < text.size(); at += 10'000)
        writer.append(
            QByteArrayView(text).sliced(at, std::min<qsizetype>(10'000, text.size() - at)));
    return writer.finish();
}

// `deflated` inflated `pieceBytes` at most at a time, as a plain scrape is sent.
QByteArray inflatedInPieces(const exporter::DeflatedText& deflated, qsizetype pieceBytes) {
    exporter::TextInflater inflater(deflated);
    QByteArray inflated;
    for (QByteArray piece = inflater.next(pieceBytes); !piece.isEmpty();
         piece = inflater.next(pieceBytes)) {
        if (piece.size() > pieceBytes)
            return "a piece over the size asked";
        inflated += piece;
    }
    return inflated;
}

uint32_t crc32Of(const QByteArray& text) {
    return uint32_t(::crc32(::crc32(0, nullptr, 0),
                            reinterpret_cast<const Bytef*>(text.constData()), uInt(text.size())));
}

// The lines of `text` for metric `name` (samples only, not HELP/TYPE).
QStringList samples(const QByteArray& text, const QString& name) {
    QStringList lines;
    for (const QByteArray& line : text.split('\n')) {
        const QString decoded = QString::fromUtf8(line);
        if (decoded.startsWith(name + u'{') || decoded.startsWith(name + u' '))
            lines.append(decoded);
    }
    return lines;
}

// The value of the one sample of `name` whose labels contain every one of `labels`
// ("group=\"g\""); NaN (equal to nothing) when there is none or there are several.
double value(const QByteArray& text, const QString& name, const QStringList& labels = {}) {
    double found = std::nan("");
    int matches = 0;
    for (const QString& line : samples(text, name)) {
        if (!std::all_of(labels.cbegin(), labels.cend(),
                         [&](const QString& label) { return line.contains(label); }))
            continue;
        ++matches;
        found = line.section(u' ', -1).toDouble();
    }
    if (matches > 1)
        qWarning("%d samples of %s match", matches, qPrintable(name));
    return matches == 1 ? found : std::nan("");
}

QByteArray escapedLabelValue(const QString& value) {
    QByteArray escaped;
    exporter::PrometheusTextWriter::appendEscapedLabelValue(escaped, value);
    return escaped;
}

// What a plain scrape of `metrics` answers once it has served `refreshes` refreshes: views
// are rendered on the exporter's renderer thread, and the event loop brings them back.
QByteArray scrapeAfter(exporter::MetricsExporter& metrics, int refreshes) {
    QByteArray text;
    const bool served = QTest::qWaitFor(
        [&] {
            text = test::metricsBodyText(metrics.metricsText(false));
            return value(text, QStringLiteral("groupscope_exporter_refreshes_total")) ==
                   double(refreshes);
        },
        10000);
    return served ? text : QByteArray(); // empty: the tests' comparisons fail on it
}

} // namespace

class TestPrometheusText : public QObject {
    Q_OBJECT

private slots:
    void labelValuesEscapeBackslashQuoteAndNewline() {
        QCOMPARE(escapedLabelValue(QStringLiteral("a\\b\"c\nd")), QByteArray("a\\\\b\\\"c\\nd"));
        // Other bytes are UTF-8 as they are, tabs and carriage returns included.
        QCOMPARE(escapedLabelValue(QStringLiteral("é\t\r")), QByteArray("\xc3\xa9\t\r"));
        // HELP escapes backslash and newline only: a quote is literal there.
        QCOMPARE(PrometheusTextWriter::escapeHelp(QStringLiteral("say \"x\"\\\n")),
                 QByteArray("say \"x\"\\\\\\n"));
    }

    void familiesHaveHelpThenTypeThenSamples() {
        PrometheusTextWriter writer;
        writer.beginFamily("first_total", QStringLiteral("Counts.\nTwo lines"),
                           exporter::MetricType::Counter);
        writer.sample({{"group", QStringLiteral("g\"1")}, {"member_host", QString()}}, 3.0);
        writer.sample(QList<exporter::MetricLabel>{}, 4.5);
        writer.beginFamily("second", QStringLiteral("A gauge."), exporter::MetricType::Gauge);
        writer.sample({{"a", QStringLiteral("x")}, {"b", QStringLiteral("y")}}, -2.0);
        QCOMPARE(writer.take(), QByteArray("# HELP first_total Counts.\\nTwo lines\n"
                                           "# TYPE first_total counter\n"
                                           "first_total{group=\"g\\\"1\"} 3\n"
                                           "first_total 4.5\n"
                                           "# HELP second A gauge.\n"
                                           "# TYPE second gauge\n"
                                           "second{a=\"x\",b=\"y\"} -2\n"));
    }

    void valuesAreSpelledAsPrometheusReadsThem() {
        QCOMPARE(PrometheusTextWriter::formatValue(0), QByteArray("0"));
        QCOMPARE(PrometheusTextWriter::formatValue(1234567890123.0), QByteArray("1234567890123"));
        QCOMPARE(PrometheusTextWriter::formatValue(0.1), QByteArray("0.1"));
        QCOMPARE(PrometheusTextWriter::formatValue(std::nan("")), QByteArray("NaN"));
        QCOMPARE(PrometheusTextWriter::formatValue(std::numeric_limits<double>::infinity()),
                 QByteArray("+Inf"));
        QCOMPARE(PrometheusTextWriter::formatValue(-std::numeric_limits<double>::infinity()),
                 QByteArray("-Inf"));
        // Beyond 2^53 a double is no exact integer: the shortest round-tripping spelling.
        const double big = 1e300;
        QCOMPARE(PrometheusTextWriter::formatValue(big).toDouble(), big);
        const double third = 1.0 / 3.0;
        QCOMPARE(PrometheusTextWriter::formatValue(third).toDouble(), third);
    }

    void namesAreChecked() {
        QVERIFY(PrometheusTextWriter::isValidMetricName("kafka_consumergroup_group_lag"));
        QVERIFY(PrometheusTextWriter::isValidMetricName("job:rule:rate5m"));
        QVERIFY(!PrometheusTextWriter::isValidMetricName("1abc"));
        QVERIFY(!PrometheusTextWriter::isValidMetricName("a-b"));
        QVERIFY(PrometheusTextWriter::isValidLabelName("cluster_name"));
        QVERIFY(!PrometheusTextWriter::isValidLabelName("__name__"));
        QVERIFY(!PrometheusTextWriter::isValidLabelName("a:b"));
        // Every family of the tables has a valid, unique name.
        QSet<QByteArray> names;
        auto check = [&](const char* name) {
            QVERIFY2(PrometheusTextWriter::isValidMetricName(name), name);
            QVERIFY2(!names.contains(name), name);
            names.insert(name);
        };
        for (const auto& family : exporter::partitionFamilies())
            check(family.name);
        for (const auto& family : exporter::groupFamilies())
            check(family.name);
        for (const auto& family : exporter::groupStateSetFamilies())
            check(family.name);
        for (const auto& family : exporter::logFamilies())
            check(family.name);
        for (const auto& family : exporter::exporterFamilies())
            check(family.name);
    }

    void partitionsWithoutACommitAreCountedApartNotAsZero() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        test::observeWholePoll(
            builder,
            {group(QStringLiteral("billing"), {row(QStringLiteral("orders"), 0, 40, 100),
                                               row(QStringLiteral("orders"), 1, std::nullopt, 70),
                                               row(QStringLiteral("orders"), 2, 5, 5)})},
            true);
        exporter::ExportOptions options;
        options.clusterName = QStringLiteral("local");
        int groups = 0;
        const QByteArray text = render(builder.view(), options, &groups);
        QCOMPARE(groups, 1);
        const QString partition0 = QStringLiteral("partition=\"0\"");
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag"), {partition0}), 60.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_offset"), {partition0}),
                 40.0);
        // No commit on partition 1: no lag sample at all (not 0), and counted apart.
        QVERIFY(std::isnan(value(text, QStringLiteral("kafka_consumergroup_group_lag"),
                                 {QStringLiteral("partition=\"1\"")})));
        QCOMPARE(samples(text, QStringLiteral("kafka_consumergroup_group_lag")).size(), 2);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_sum_lag")), 60.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_max_lag")), 60.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_partitions_without_commit")),
                 1.0);
        // The log's offsets per partition, for every partition the group knows.
        QCOMPARE(value(text, QStringLiteral("kafka_partition_latest_offset"),
                       {QStringLiteral("partition=\"1\"")}),
                 70.0);
        QCOMPARE(value(text, QStringLiteral("kafka_partition_earliest_offset"), {partition0}), 0.0);
        QVERIFY(
            text.contains("kafka_consumergroup_group_lag{cluster_name=\"local\",group=\"billing\","
                          "topic=\"orders\",partition=\"0\"} 60\n"));
        // The state set: 1 for Stable, 0 for each other state.
        QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_state"),
                       {QStringLiteral("state=\"Stable\"")}),
                 1.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_state"),
                       {QStringLiteral("state=\"Empty\"")}),
                 0.0);
        QCOMPARE(samples(text, QStringLiteral("groupscope_consumergroup_state")).size(), 9);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_members")), 0.0);
    }

    // The state sets extend each group's label set in place: escaping, non-ASCII names and
    // a group without any label (no cluster name, the group named "") come out whole.
    void stateSetLabelsAreTheGroupsPlusTheState() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        test::observeWholePoll(
            builder, {group(QStringLiteral("pay\"ments-\u00e9"), {}), group(QString(), {})}, true);
        exporter::ExportOptions options;
        options.clusterName = QStringLiteral("eu\\1");
        QByteArray text = render(builder.view(), options);
        // é is C3 A9 in UTF-8.
        QVERIFY(text.contains("groupscope_consumergroup_state{cluster_name=\"eu\\\\1\","
                              "group=\"pay\\\"ments-\xc3\xa9\",state=\"Stable\"} 1\n"));
        QVERIFY(text.contains("groupscope_consumergroup_status{cluster_name=\"eu\\\\1\","
                              "group=\"pay\\\"ments-\xc3\xa9\",status=\""));
        options.clusterName.clear();
        text = render(builder.view(), options);
        QVERIFY(text.contains("\ngroupscope_consumergroup_state{state=\"Stable\"} 1\n"));
        QCOMPARE(samples(text, QStringLiteral("groupscope_consumergroup_state")).size(), 18);
    }

    void oneLogSamplePerPartitionHoweverManyGroupsReadIt() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        test::observeWholePoll(
            builder,
            {group(QStringLiteral("a"), {row(QStringLiteral("orders"), 0, 1, 9)}),
             group(QStringLiteral("b"), {row(QStringLiteral("orders"), 0, 2, 9)})},
            true);
        const QByteArray text = render(builder.view(), {});
        QCOMPARE(samples(text, QStringLiteral("kafka_partition_latest_offset")).size(), 1);
        QCOMPARE(samples(text, QStringLiteral("kafka_consumergroup_group_lag")).size(), 2);
        // Families in the table's order, each once: a family's samples are never split.
        const QList<QByteArray> lines = text.split('\n');
        QStringList typeLines;
        for (const QByteArray& line : lines)
            if (line.startsWith("# TYPE "))
                typeLines.append(QString::fromUtf8(line.split(' ').at(2)));
        QCOMPARE(typeLines.first(), QStringLiteral("kafka_consumergroup_group_lag"));
        QCOMPARE(typeLines.size(), QSet<QString>(typeLines.cbegin(), typeLines.cend()).size());
        // Every sample belongs to the family whose TYPE line came last.
        QByteArray family;
        for (const QByteArray& line : lines) {
            if (line.startsWith("# TYPE ")) {
                family = line.split(' ').at(2);
            } else if (!line.isEmpty() && !line.startsWith('#')) {
                qsizetype nameEnd = 0;
                while (nameEnd < line.size() && line[nameEnd] != '{' && line[nameEnd] != ' ')
                    ++nameEnd;
                QCOMPARE(line.left(nameEnd), family);
            }
        }
        // Without a cluster name the label is left out rather than empty.
        QVERIFY(!text.contains("cluster_name"));
    }

    void theGroupFilterKeepsMatchingGroupsOnly() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        test::observeWholePoll(
            builder,
            {group(QStringLiteral("billing-eu"), {row(QStringLiteral("orders"), 0, 1, 9)}),
             group(QStringLiteral("billing-us"), {row(QStringLiteral("orders"), 1, 1, 9)}),
             group(QStringLiteral("audit"), {row(QStringLiteral("logs"), 0, 1, 9)})},
            true);
        exporter::ExportOptions options;
        options.groupFilter = QRegularExpression(QStringLiteral("^billing-"));
        int groups = 0;
        const QByteArray text = render(builder.view(), options, &groups);
        QCOMPARE(groups, 2);
        QVERIFY(!text.contains("audit"));
        // The log rows are those of the exported groups' partitions only.
        QVERIFY(!text.contains("topic=\"logs\""));
        QCOMPARE(samples(text, QStringLiteral("kafka_partition_latest_offset")).size(), 2);
    }

    void granularityTopicFilterAndMemberLabelsBoundTheSeries() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        monitor::PartitionSnapshot owned = row(QStringLiteral("orders"), 0, 40, 100);
        owned.owner =
            monitor::PartitionOwner(QStringLiteral("consumer-1-abc"), QStringLiteral("consumer-1"),
                                    QStringLiteral("/10.0.0.1"));
        test::observeWholePoll(
            builder,
            {group(QStringLiteral("billing"), {owned, row(QStringLiteral("orders"), 1, 90, 100),
                                               row(QStringLiteral("orders"), 2, std::nullopt, 100),
                                               row(QStringLiteral("audit"), 0, 5, 7)})},
            true);
        const monitor::ClusterView view = builder.view();
        const QString lag = QStringLiteral("kafka_consumergroup_group_lag");

        // Per partition (the default): no member labels unless asked.
        exporter::ExportOptions options;
        QByteArray text = render(view, options);
        QCOMPARE(samples(text, lag).size(), 3);
        QVERIFY(!text.contains("consumer_id"));
        options.memberLabels = true;
        text = render(view, options);
        QCOMPARE(value(text, lag,
                       {QStringLiteral("consumer_id=\"consumer-1-abc\""),
                        QStringLiteral("client_id=\"consumer-1\""),
                        QStringLiteral("member_host=\"/10.0.0.1\"")}),
                 60.0);

        // Per topic: the sum and the worst of the topic's partitions with a commit.
        options = {};
        options.granularity = exporter::Granularity::Topic;
        text = render(view, options);
        QVERIFY(samples(text, lag).isEmpty());
        const QString sumLag = QStringLiteral("kafka_consumergroup_group_topic_sum_lag");
        QCOMPARE(samples(text, sumLag).size(), 2);
        QCOMPARE(value(text, sumLag, {QStringLiteral("topic=\"orders\"")}), 70.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_group_topic_max_lag"),
                       {QStringLiteral("topic=\"orders\"")}),
                 60.0);
        QCOMPARE(value(text, sumLag, {QStringLiteral("topic=\"audit\"")}), 2.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_sum_lag")), 72.0);

        // Per group: neither partition nor topic series; the log's offsets stay.
        options.granularity = exporter::Granularity::Group;
        text = render(view, options);
        QVERIFY(!text.contains("kafka_consumergroup_group_lag"));
        QVERIFY(!text.contains("group_topic_"));
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_max_lag")), 60.0);
        QCOMPARE(samples(text, QStringLiteral("kafka_partition_latest_offset")).size(), 4);

        // A topic filter: only its partitions, in every family but the group's own figures.
        options = {};
        options.topicFilter = QRegularExpression(QStringLiteral("^audit$"));
        text = render(view, options);
        QCOMPARE(samples(text, lag).size(), 1);
        QVERIFY(!text.contains("topic=\"orders\""));
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_sum_lag")), 72.0);
    }

    void perPartitionTimeLagIsTheDetailsAndTheGroupMaxItsWorst() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        builder.setWatchedGroups({QStringLiteral("watched")},
                                 monitor::GroupMonitor::HistorySource::Stream);
        // Both groups commit the same: partition 0 falls behind (produce 100, consume 60 per
        // 2 s poll), partition 1 keeps up.
        for (int poll = 0; poll < 15; ++poll) {
            clock.advance(2s);
            const int64_t end0 = 1100 + 100 * poll;
            const int64_t end1 = 500 + 10 * poll;
            const QList<monitor::PartitionSnapshot> rows{
                row(QStringLiteral("orders"), 0, 1000 + 60 * poll, end0),
                row(QStringLiteral("orders"), 1, end1, end1)};
            test::observeWholePoll(
                builder,
                {group(QStringLiteral("lean"), rows), group(QStringLiteral("watched"), rows)},
                true);
        }
        const monitor::ClusterView view = builder.view();
        const monitor::GroupMonitorSnapshot* detail = view.watchedGroup(QStringLiteral("watched"));
        QVERIFY(detail);
        QCOMPARE(detail->partitions.size(), 2);
        const QByteArray text = render(view, {});
        for (const QString& id : {QStringLiteral("lean"), QStringLiteral("watched")}) {
            const QString groupLabel = QStringLiteral("group=\"%1\"").arg(id);
            const auto behind = value(text, QStringLiteral("kafka_consumergroup_group_lag_seconds"),
                                      {groupLabel, QStringLiteral("partition=\"0\"")});
            QVERIFY2(!std::isnan(behind), qPrintable(id));
            // The exporter's number is the one the group's detail shows.
            QVERIFY(detail->partitions.at(0).timeLag.isKnown());
            QCOMPARE(behind, detail->partitions.at(0).timeLag.seconds);
            QVERIFY(behind > 0);
            QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag_seconds"),
                           {groupLabel, QStringLiteral("partition=\"1\"")}),
                     0.0);
            QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_max_lag_seconds"),
                           {groupLabel}),
                     behind);
            // Polling only, commits feed the verdict: partition 0 warns.
            QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_partition_status"),
                           {groupLabel, QStringLiteral("partition=\"0\"")}),
                     double(int(lag::PartitionStatus::Warning)));
            QCOMPARE(value(text, QStringLiteral("groupscope_consumergroup_status"),
                           {groupLabel, QStringLiteral("status=\"WARN\"")}),
                     1.0);
        }
    }

    // The view's text is kept deflated and rendered through it a megabyte at a time: a scrape
    // that takes gzip gets one gzip member (the kept blocks, then the exporter's own figures)
    // that GNU gzip reads back as exactly the text, and any other scrape the text itself.
    // Inflated in pieces of any size, down to one byte, the deflated text is exactly the
    // text written, though a piece often ends inside a long repeat that zlib holds over.
    void aDeflatedTextInflatesExactlyInPiecesOfAnySize() {
        QByteArray text;
        for (int i = 0; i < 3000; ++i)
            text += "kafka_consumergroup_group_lag{group=\"g" + QByteArray::number(i % 7) + "\"} " +
                    QByteArray(i % 97, 'x') + QByteArray::number(i) + "\n";
        const exporter::DeflatedText deflated = deflatedInPieces(text);
        QCOMPARE(deflated.textSize, text.size());
        QCOMPARE(deflated.crc32, crc32Of(text));
        QVERIFY(deflated.deflatedSize() < text.size() / 10);
        for (const qsizetype pieceBytes :
             {qsizetype(1), qsizetype(7), qsizetype(4096), qsizetype(1) << 20})
            QVERIFY2(inflatedInPieces(deflated, pieceBytes) == text,
                     qPrintable(QString::number(pieceBytes)));
    }

    // Texts deflated apart (the renderer's threads deflate a family each) join into one text
    // with the checksum of the whole: big runs are kept as they are, small ones next to each
    // other copied into one, and the runs inflate as one stream, a piece across their joins.
    void textsDeflatedApartJoinIntoOne() {
        QRandomGenerator random(33);
        QByteArray text;
        QList<qsizetype> partEnds;
        // Hex digits deflate to about half: each big part is over a megabyte deflated.
        for (const int lines : {150'000, 0, 10, 150'000, 3}) {
            for (int i = 0; i < lines; ++i)
                text += "lag{group=\"" + QByteArray::number(random.generate64(), 16) + "\"} 1\n";
            partEnds.append(text.size());
        }
        exporter::DeflatedText joined;
        qsizetype partStart = 0;
        for (const qsizetype partEnd : partEnds) {
            joined.append(deflatedInPieces(text.mid(partStart, partEnd - partStart)));
            partStart = partEnd;
        }
        // The first big part; the empty and the small one in one run; the second big part;
        // the last small one.
        QCOMPARE(joined.blocks.size(), 4);
        QCOMPARE(joined.textSize, text.size());
        QCOMPARE(joined.crc32, crc32Of(text));
        for (const qsizetype pieceBytes : {qsizetype(4093), qsizetype(1) << 20})
            QVERIFY2(inflatedInPieces(joined, pieceBytes) == text,
                     qPrintable(QString::number(pieceBytes)));
    }

    void aScrapeThatTakesGzipGetsTheSameTextDeflated() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        QList<GroupSnapshot> groups;
        for (int g = 0; g < 2000; ++g) {
            QList<monitor::PartitionSnapshot> rows;
            for (int p = 0; p < 5; ++p)
                rows.append(row(QStringLiteral("topic-%1").arg(g % 7), p, g + p, 5000));
            groups.append(group(QStringLiteral("group-%1").arg(g, 5, 10, QLatin1Char('0')), rows));
        }
        test::observeWholePoll(builder, groups, true);
        exporter::ExportOptions options;
        options.clusterName = QStringLiteral("c");
        const monitor::ClusterView view = builder.view();
        const QByteArray expected = render(view, options);
        QVERIFY2(expected.size() > 4 * 1024 * 1024, "several pieces of a megabyte");

        exporter::MetricsExporter metrics(options, clock);
        metrics.observeView(view);
        QVERIFY(!scrapeAfter(metrics, 1).isEmpty());
        // A client without gzip is sent the text inflated a piece at a time as it reads, not
        // whole, then the exporter's own figures; Content-Length counts every piece.
        const auto plain = metrics.metricsText(false);
        QVERIFY(!plain.gzip);
        int pieces = 0;
        const QByteArray plainText = test::metricsBodyText(plain, &pieces);
        QVERIFY(plainText.startsWith(expected));
        QCOMPARE(value(plainText.mid(expected.size()), QStringLiteral("groupscope_exporter_up")),
                 1.0);
        QCOMPARE(plainText.size(), plain.parts.join().size() + plain.moreBytes);
        QVERIFY2(pieces > expected.size() / (1 << 20), QByteArray::number(pieces));

        const auto deflated = metrics.metricsText(true);
        QVERIFY(deflated.gzip);
        const QByteArray member = deflated.parts.join();
        QVERIFY2(member.size() < expected.size() / 10, QByteArray::number(member.size()));
        QProcess gunzip;
        gunzip.start(QStringLiteral("gzip"), {QStringLiteral("-dc")});
        QVERIFY(gunzip.waitForStarted());
        gunzip.write(member);
        gunzip.closeWriteChannel();
        QByteArray text;
        while (gunzip.state() != QProcess::NotRunning) {
            gunzip.waitForReadyRead(30000);
            text += gunzip.readAllStandardOutput();
        }
        text += gunzip.readAllStandardOutput();
        QCOMPARE(gunzip.exitStatus(), QProcess::NormalExit);
        QVERIFY2(gunzip.exitCode() == 0, gunzip.readAllStandardError().constData()); // CRC, size
        QVERIFY(text.startsWith(expected));
        QCOMPARE(value(text.mid(expected.size()), QStringLiteral("groupscope_exporter_up")), 1.0);
    }

    void staleValuesAreServedWithStalenessAndUpZero() {
        lag::ManualClock clock;
        exporter::ExportOptions options;
        options.clusterName = QStringLiteral("c");
        exporter::MetricsExporter metrics(options, clock);
        // Before the first refresh: nothing but the exporter's own figures, up 0.
        QByteArray text = test::metricsBodyText(metrics.metricsText(false));
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_up")), 0.0);
        QVERIFY(std::isnan(
            value(text, QStringLiteral("groupscope_exporter_last_refresh_timestamp_seconds"))));
        QVERIFY(samples(text, QStringLiteral("kafka_consumergroup_group_lag")).isEmpty());

        monitor::ClusterViewBuilder builder(clock);
        clock.advance(2s);
        test::observeWholePoll(
            builder, {group(QStringLiteral("g"), {row(QStringLiteral("t"), 0, 3, 10)})}, true);
        const int64_t polledAtMs = clock.nowMs();
        metrics.observeView(builder.view());
        text = scrapeAfter(metrics, 1);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_up")), 1.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_staleness_seconds")), 0.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_last_refresh_timestamp_seconds")),
                 polledAtMs / 1000.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag")), 7.0);

        // The cluster goes away: the last good values stay, up 0, staleness grows.
        clock.advance(5s);
        metrics.observeFailure(); // e.g. "Local: Broker transport failure"
        clock.advance(7s);
        text = test::metricsBodyText(metrics.metricsText(false));
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_up")), 0.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_staleness_seconds")), 12.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag")), 7.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_refresh_failures_total")), 1.0);

        // Back: fresh values, up 1 again.
        test::observeWholePoll(
            builder, {group(QStringLiteral("g"), {row(QStringLiteral("t"), 0, 10, 10)})}, true);
        metrics.observeView(builder.view());
        text = scrapeAfter(metrics, 2);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_up")), 1.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_staleness_seconds")), 0.0);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag")), 0.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_refreshes_total")), 2.0);

        // A refresh fails while the view before it is still being rendered: that view's
        // values are served when they are ready, but the exporter stays down.
        test::observeWholePoll(
            builder, {group(QStringLiteral("g"), {row(QStringLiteral("t"), 0, 8, 10)})}, true);
        metrics.observeView(builder.view());
        metrics.observeFailure(); // e.g. "Local: Broker transport failure"
        text = scrapeAfter(metrics, 3);
        QCOMPARE(value(text, QStringLiteral("kafka_consumergroup_group_lag")), 2.0);
        QCOMPARE(value(text, QStringLiteral("groupscope_exporter_up")), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestPrometheusText)
#include "TestPrometheusText.moc"
