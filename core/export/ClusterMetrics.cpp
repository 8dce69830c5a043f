#include "export/ClusterMetrics.h"

#include "export/LabelSets.h"

#include "kafka/GroupTypes.h"
#include "lag/LagDetailText.h"

#include <QHash>
#include <QMap>

#include <algorithm>
#include <vector>

namespace groupscope::exporter {

namespace {

using monitor::GroupSnapshot;
using monitor::PartitionSnapshot;

std::optional<double> optionalValue(const std::optional<int64_t>& value) {
    return value ? std::optional<double>(double(*value)) : std::nullopt;
}

std::optional<double> knownOffset(int64_t offset) {
    return offset >= 0 ? std::optional<double>(double(offset)) : std::nullopt;
}

// Partitions with a commit only: a partition without one has no lag, not lag 0.
std::optional<double> sumLag(const GroupRow& row) {
    std::optional<double> sum;
    for (const PartitionSnapshot& partition : row.group.partitions)
        if (partition.lag)
            sum = sum.value_or(0) + double(*partition.lag);
    return sum;
}

std::optional<double> maxLag(const GroupRow& row) {
    std::optional<double> worst;
    for (const PartitionSnapshot& partition : row.group.partitions)
        if (partition.lag && (!worst || double(*partition.lag) > *worst))
            worst = double(*partition.lag);
    return worst;
}

QList<MetricFamily<PartitionRow>> makePartitionFamilies() {
    return {
        {"kafka_consumergroup_group_lag",
         "Log end offset minus committed offset of the partition for the group (no sample "
         "without a commit), as kafka-consumer-groups shows it.",
         MetricType::Gauge,
         [](const PartitionRow& row) { return optionalValue(row.partition.lag); }},
        {"kafka_consumergroup_group_offset", "The group's committed offset on the partition.",
         MetricType::Gauge,
         [](const PartitionRow& row) { return optionalValue(row.partition.committedOffset); }},
        {"kafka_consumergroup_group_lag_seconds",
         "Time lag: seconds since the log end was at the committed offset, interpolated in "
         "the polled log-end history (0 when caught up; no sample while unknown or only a "
         "lower bound).",
         MetricType::Gauge,
         [](const PartitionRow& row) { return knownSeconds(row.trend.timeLag()); }},
        {"groupscope_consumergroup_group_effective_lag",
         "Records the group has yet to receive: lag without transaction markers and aborted "
         "records, decided from the records (no sample where it could not be decided, e.g. a "
         "commit deleted by retention).",
         MetricType::Gauge,
         [](const PartitionRow& row) {
             return optionalValue(row.partition.lagDetail->effectiveLag);
         }},
        {"groupscope_consumergroup_group_oldest_record_age_seconds",
         "Age of the oldest unconsumed record, from its own timestamp in the log (no sample "
         "when caught up, without a timestamp or not read).",
         MetricType::Gauge,
         [](const PartitionRow& row) {
             const std::optional<int64_t> ageMs =
                 lag::oldestRecordAgeMs(row.partition.lagDetail, row.takenAtMs);
             return ageMs ? std::optional<double>(double(*ageMs) / 1000.0) : std::nullopt;
         }},
        {"groupscope_consumergroup_partition_status",
         "Burrow's verdict on the partition: 0 OK, 1 WARN, 2 STOP, 3 STALL, 4 REWIND "
         "(ordered by severity, so max() is the worst); no sample before a commit is seen.",
         MetricType::Gauge,
         [](const PartitionRow& row) {
             return row.trend.health() ? std::optional<double>(double(int(*row.trend.health())))
                                       : std::nullopt;
         }},
    };
}

QList<MetricFamily<TopicRow>> makeTopicFamilies() {
    return {
        {"kafka_consumergroup_group_topic_sum_lag",
         "Sum of the lag of the group's partitions of the topic that have a commit.",
         MetricType::Gauge, [](const TopicRow& row) { return row.sumLag; }},
        {"groupscope_consumergroup_group_topic_max_lag",
         "The highest lag of the group's partitions of the topic.", MetricType::Gauge,
         [](const TopicRow& row) { return row.maxLag; }},
        {"groupscope_consumergroup_group_topic_max_lag_seconds",
         "The highest known time lag of the group's partitions of the topic.", MetricType::Gauge,
         [](const TopicRow& row) { return row.maxLagSeconds; }},
    };
}

QList<MetricFamily<GroupRow>> makeGroupFamilies() {
    return {
        {"kafka_consumergroup_group_sum_lag",
         "Sum of the lag of the group's partitions that have a commit (see "
         "groupscope_consumergroup_partitions_without_commit).",
         MetricType::Gauge, sumLag},
        {"kafka_consumergroup_group_max_lag", "The highest lag of the group's partitions.",
         MetricType::Gauge, maxLag},
        {"kafka_consumergroup_group_max_lag_seconds",
         "The highest known time lag of the group's partitions.", MetricType::Gauge,
         [](const GroupRow& row) { return knownSeconds(row.group.trend->maxTimeLag); }},
        {"groupscope_consumergroup_partitions_without_commit",
         "Partitions the group is assigned or known on without a committed offset: left out "
         "of the lag sums, not counted as 0.",
         MetricType::Gauge,
         [](const GroupRow& row) {
             return std::optional<double>(double(std::count_if(
                 row.group.partitions.cbegin(), row.group.partitions.cend(),
                 [](const PartitionSnapshot& partition) { return !partition.committedOffset; })));
         }},
        {"groupscope_consumergroup_rebalances_10m",
         "Rebalances of the group in the last ten minutes (generations from the offsets topic, "
         "group epochs from polls).",
         MetricType::Gauge,
         [](const GroupRow& row) {
             return std::optional<double>(double(row.group.trend->rebalance.rebalancesLast10Min));
         }},
        {"groupscope_consumergroup_stuck_rebalance",
         "1 while the group has been rebalancing longer than its session or rebalance timeout.",
         MetricType::Gauge,
         [](const GroupRow& row) {
             return std::optional<double>(row.group.trend->rebalance.stuckRebalance ? 1.0 : 0.0);
         }},
        {"kafka_consumergroup_members", "Members of the group.", MetricType::Gauge,
         [](const GroupRow& row) {
             return std::optional<double>(double(row.group.description.members.size()));
         }},
        {"groupscope_consumergroup_epoch",
         "The group epoch of a consumer, share or streams group (KIP-848): it goes up with "
         "every membership or subscription change, so changes() counts rebalances. Classic "
         "groups report none.",
         MetricType::Gauge,
         [](const GroupRow& row) {
             const auto& epoch = row.group.description.groupEpoch;
             return epoch ? std::optional<double>(double(*epoch)) : std::nullopt;
         }},
        {"groupscope_consumergroup_poll_error",
         "1 when the group's last poll failed (its other figures are the last good ones).",
         MetricType::Gauge,
         [](const GroupRow& row) {
             return std::optional<double>(row.group.error.isError() ? 1.0 : 0.0);
         }},
    };
}

QStringList groupStates() {
    static const QStringList states = [] {
        QStringList names;
        for (const kafka::GroupState state :
             {kafka::GroupState::Unknown, kafka::GroupState::PreparingRebalance,
              kafka::GroupState::CompletingRebalance, kafka::GroupState::Stable,
              kafka::GroupState::Dead, kafka::GroupState::Empty, kafka::GroupState::Assigning,
              kafka::GroupState::Reconciling, kafka::GroupState::NotReady})
            names.append(kafka::groupStateName(state));
        return names;
    }();
    return states;
}

QStringList groupStatuses() {
    static const QStringList statuses = [] {
        QStringList names;
        for (const lag::GroupStatus status : {lag::GroupStatus::NotFound, lag::GroupStatus::Ok,
                                              lag::GroupStatus::Warning, lag::GroupStatus::Error})
            names.append(lag::groupStatusName(status));
        return names;
    }();
    return statuses;
}

QList<GroupStateSetFamily> makeGroupStateSetFamilies() {
    return {
        {"groupscope_consumergroup_state",
         "The group's state as Kafka reports it (Stable, Empty, PreparingRebalance, ...): 1 for "
         "the current one.",
         "state", groupStates,
         [](const GroupRow& row) { return kafka::groupStateName(row.group.description.state); }},
        {"groupscope_consumergroup_status",
         "Burrow's verdict on the group (NOTFOUND, OK, WARN, ERR; ERR when a partition is STOP, "
         "STALL or REWIND): 1 for the current one.",
         "status", groupStatuses,
         [](const GroupRow& row) { return lag::groupStatusName(row.group.trend->health); }},
    };
}

QList<MetricFamily<LogRow>> makeLogFamilies() {
    return {
        {"kafka_partition_latest_offset",
         "The partition's log end offset (the next to be written).", MetricType::Gauge,
         [](const LogRow& row) { return knownOffset(row.partition.logEndOffset); }},
        {"kafka_partition_earliest_offset", "The partition's log start offset (the oldest kept).",
         MetricType::Gauge,
         [](const LogRow& row) { return knownOffset(row.partition.logStartOffset); }},
    };
}

QList<MetricFamily<ExporterStatus>> makeExporterFamilies() {
    return {
        {"groupscope_exporter_up",
         "1 when the last refresh of the cluster succeeded; 0 while it fails (the values served "
         "are then the last good ones, see groupscope_exporter_staleness_seconds).",
         MetricType::Gauge,
         [](const ExporterStatus& status) { return std::optional<double>(status.up ? 1.0 : 0.0); }},
        {"groupscope_exporter_last_refresh_timestamp_seconds",
         "When the values served were polled (Unix time).", MetricType::Gauge,
         [](const ExporterStatus& status) {
             return status.lastRefreshMs ? std::optional<double>(*status.lastRefreshMs / 1000.0)
                                         : std::nullopt;
         }},
        {"groupscope_exporter_staleness_seconds",
         "Seconds since the values served were polled (since the exporter started, before the "
         "first refresh).",
         MetricType::Gauge,
         [](const ExporterStatus& status) {
             const int64_t since = status.lastRefreshMs.value_or(status.startedMs);
             return std::optional<double>(std::max<int64_t>(0, status.nowMs - since) / 1000.0);
         }},
        {"groupscope_exporter_refreshes_total", "Successful refreshes of the cluster.",
         MetricType::Counter,
         [](const ExporterStatus& status) {
             return std::optional<double>(double(status.refreshes));
         }},
        {"groupscope_exporter_refresh_failures_total", "Refreshes of the cluster that failed.",
         MetricType::Counter,
         [](const ExporterStatus& status) {
             return std::optional<double>(double(status.refreshFailures));
         }},
        {"groupscope_exporter_groups", "Groups in the values served (after --group-filter).",
         MetricType::Gauge,
         [](const ExporterStatus& status) { return std::optional<double>(double(status.groups)); }},
        {"groupscope_exporter_render_duration_seconds",
         "Seconds it took to render the values served, once per refresh.", MetricType::Gauge,
         [](const ExporterStatus& status) { return std::optional<double>(status.renderSeconds); }},
        {"groupscope_exporter_scrape_duration_seconds",
         "Seconds this scrape took up to the exporter's own figures.", MetricType::Gauge,
         [](const ExporterStatus& status) { return std::optional<double>(status.scrapeSeconds); }},
    };
}

} // namespace

std::optional<double> knownSeconds(const lag::TimeLag& timeLag) {
    return timeLag.isKnown() ? std::optional<double>(timeLag.seconds) : std::nullopt;
}

const QList<MetricFamily<PartitionRow>>& partitionFamilies() {
    static const QList<MetricFamily<PartitionRow>> families = makePartitionFamilies();
    return families;
}

const QList<MetricFamily<TopicRow>>& topicFamilies() {
    static const QList<MetricFamily<TopicRow>> families = makeTopicFamilies();
    return families;
}

const QList<MetricFamily<GroupRow>>& groupFamilies() {
    static const QList<MetricFamily<GroupRow>> families = makeGroupFamilies();
    return families;
}

const QList<GroupStateSetFamily>& groupStateSetFamilies() {
    static const QList<GroupStateSetFamily> families = makeGroupStateSetFamilies();
    return families;
}

const QList<MetricFamily<LogRow>>& logFamilies() {
    static const QList<MetricFamily<LogRow>> families = makeLogFamilies();
    return families;
}

const QList<MetricFamily<ExporterStatus>>& exporterFamilies() {
    static const QList<MetricFamily<ExporterStatus>> families = makeExporterFamilies();
    return families;
}

QByteArray renderExporterMetrics(const ExporterStatus& status, const ExportOptions& options) {
    PrometheusTextWriter writer;
    const std::vector<ExporterStatus> rows{status};
    LabelSets labels;
    labels.append({{"cluster_name", options.clusterName}});
    for (const auto& family : exporterFamilies())
        writeFamily(writer, family, rows, labels);
    writer.beginFamily("groupscope_exporter_http_responses_total",
                       QStringLiteral("HTTP answers the exporter sent, by status code."),
                       MetricType::Counter);
    for (auto it = status.responses.cbegin(); it != status.responses.cend(); ++it)
        writer.sample({{"code", QString::number(it.key())}}, double(it.value()));
    return writer.take();
}

} // namespace groupscope::exporter
