#pragma once
// What the exporter serves, as tables of metric families over the live pipeline's
// ClusterView: one entry per family (name, help, type, how to read the value from a row).
// A new per-partition figure is one more entry in partitionFamilies(); the writer, the
// labels and the order follow from the table.
//
// Names and labels follow kafka-lag-exporter where it has the figure (per partition:
// kafka_consumergroup_group_lag/_offset/_lag_seconds with cluster_name, group, topic,
// partition, member_host, consumer_id, client_id), kafka_exporter's where only it has one
// (kafka_consumergroup_members), and groupscope_* for what neither has. README.md
// ("Prometheus exporter") has the table.

#include "export/PrometheusText.h"
#include "monitor/ClusterView.h"

#include <QRegularExpression>

#include <optional>

namespace groupscope::exporter {

struct ExportOptions {
    QString clusterName; // the cluster_name label
    // Groups whose id this matches are exported (QRegularExpression::match, unanchored as
    // kafka-lag-exporter's group-whitelist); none: every group.
    std::optional<QRegularExpression> groupFilter;
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

// The per-partition, per-group and log families of `view`'s groups that pass the filter:
// rendered once per refresh. `groups` (when given) receives how many groups were exported.
QByteArray renderClusterMetrics(const monitor::ClusterView& view, const ExportOptions& options,
                                int* groups = nullptr);
// The exporter's own families: rendered at each scrape (staleness grows between refreshes).
QByteArray renderExporterMetrics(const ExporterStatus& status, const ExportOptions& options);

} // namespace groupscope::exporter
