#pragma once
// What the exporter serves, as tables of metric families over the live pipeline's
// ClusterView: one entry per family (name, help, type, how to read the value from a row).
// A new per-partition figure is one more entry in partitionFamilies(); the writer, the
// labels and the order follow from the table.
//
// Names and labels follow kafka-lag-exporter where it has the figure (per partition:
// kafka_consumergroup_group_lag/_offset/_lag_seconds with cluster_name, group, topic,
// partition, and with ExportOptions::memberLabels its member_host, consumer_id, client_id;
// per topic: kafka_consumergroup_group_topic_sum_lag), kafka_exporter's where only it has one
// (kafka_consumergroup_members), and groupscope_* for what neither has. README.md
// ("Prometheus exporter") has the table.

#include "export/PrometheusText.h"
#include "monitor/ClusterView.h"

#include <QRegularExpression>

#include <optional>

namespace groupscope::exporter {

// How finely lag is exported: what bounds the series count (README, "Prometheus exporter").
enum class Granularity {
    Partition, // per partition of each group (kafka-lag-exporter's families)
    Topic,     // per topic of each group (sum and worst of its partitions)
    Group,     // per group only
};

struct ExportOptions {
    QString clusterName; // the cluster_name label
    // Groups whose id this matches are exported (QRegularExpression::match, unanchored as
    // kafka-lag-exporter's group-whitelist); none: every group.
    std::optional<QRegularExpression> groupFilter;
    // Topics whose name this matches are exported, per partition, per topic and in the log
    // families; none: every topic. The per-group figures still cover the whole group.
    std::optional<QRegularExpression> topicFilter;
    Granularity granularity = Granularity::Partition;
    // kafka-lag-exporter's member_host, consumer_id and client_id labels on per-partition
    // series. Off by default: they change at every rebalance, and each change starts new
    // series in Prometheus.
    bool memberLabels = false;
};

// A partition of a group, as one sample of each per-partition family.
struct PartitionRow {
    const monitor::GroupSnapshot& group;
    const monitor::PartitionSnapshot& partition;
    const monitor::PartitionTrend& trend;
    int64_t takenAtMs; // when the poll was taken: the oldest record's age is measured to it
};

// A group, as one sample of each per-group family.
struct GroupRow {
    const monitor::GroupSnapshot& group;
};

// A topic of a group, as one sample of each per-topic family: its partitions' figures.
struct TopicRow {
    const monitor::GroupSnapshot& group;
    QString topic;
    std::optional<double> sumLag;        // over partitions with a commit
    std::optional<double> maxLag;        // the worst of those
    std::optional<double> maxLagSeconds; // the worst known time lag
};

// A partition of the log (whichever group it was read for): its log start and end.
struct LogRow {
    const monitor::PartitionSnapshot& partition;
};

template <typename Row> struct MetricFamily {
    const char* name;
    const char* help;
    MetricType type;
    // No value: no sample for this row (e.g. no commit, so no lag).
    std::optional<double> (*value)(const Row& row);
};

// A family with one sample per possible value of a label, 1 for the row's current value and
// 0 for the others (OpenMetrics' StateSet): `== 1` selects a state and no series comes and
// goes when the state changes.
struct GroupStateSetFamily {
    const char* name;
    const char* help;
    const char* label;
    QStringList (*states)();
    QString (*current)(const GroupRow& row);
};

const QList<MetricFamily<PartitionRow>>& partitionFamilies();
const QList<MetricFamily<TopicRow>>& topicFamilies();
const QList<MetricFamily<GroupRow>>& groupFamilies();
const QList<GroupStateSetFamily>& groupStateSetFamilies();
const QList<MetricFamily<LogRow>>& logFamilies();

// The exporter's own figures at one scrape.
struct ExporterStatus {
    bool up = false;                      // the last refresh succeeded
    std::optional<int64_t> lastRefreshMs; // when the values served were polled
    int64_t nowMs = 0;
    int64_t startedMs = 0;
    qint64 refreshes = 0;
    qint64 refreshFailures = 0;
    int groups = 0;              // groups in the values served
    double renderSeconds = 0;    // rendering the values at their refresh
    double scrapeSeconds = 0;    // this scrape, up to the exporter's own families
    QMap<int, qint64> responses; // HTTP answers by status code
};
const QList<MetricFamily<ExporterStatus>>& exporterFamilies();

// Estimated (interpolated in the log-end history) or caught up: a lower bound or an unknown
// is no number to graph.
std::optional<double> knownSeconds(const lag::TimeLag& timeLag);

// The exporter's own families: rendered at each scrape (staleness grows between refreshes).
QByteArray renderExporterMetrics(const ExporterStatus& status, const ExportOptions& options);

} // namespace groupscope::exporter
