#include "export/ClusterMetrics.h"

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

// Estimated (interpolated in the log-end history) or caught up: a lower bound or an
// unknown is no number to graph.
std::optional<double> knownSeconds(const lag::TimeLag& timeLag) {
    return timeLag.isKnown() ? std::optional<double>(timeLag.seconds) : std::nullopt;
}

QString groupTypeLabel(kafka::GroupType type) {
    return type == kafka::GroupType::Unknown ? QString() : kafka::groupTypeName(type).toLower();
}

bool isSimpleConsumer(const GroupSnapshot& group) {
    return group.description.protocolType.isEmpty() &&
           (group.description.type == kafka::GroupType::Classic ||
            group.description.type == kafka::GroupType::Unknown);
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

std::optional<double> worse(std::optional<double> current, std::optional<double> candidate) {
    return candidate && (!current || *candidate > *current) ? candidate : current;
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

// The `{...}` label sets of many rows, each row made of pieces of text shared with other
// rows (`,name="value"` for one or more labels), each piece written once: a group's name
// once for all its partitions, a topic's and a partition number's once for all groups. A
// million partitions' label sets written out whole took 134 MB at 100,000 groups (heaptrack);
// as pieces a row takes 16 bytes (20 with the member labels).
class LabelSets {
public:
    using Piece = uint32_t;
    // A piece of `labels` (PrometheusTextWriter::appendLabels).
    Piece piece(const QList<MetricLabel>& labels) {
        m_pieceStarts.push_back(m_pieces.size());
        PrometheusTextWriter::appendLabels(m_pieces, labels);
        return Piece(m_pieceStarts.size() - 1);
    }
    // A row whose labels are those of `pieces`, in order.
    void append(std::initializer_list<Piece> pieces) {
        m_rowStarts.push_back(uint32_t(m_rowPieces.size()));
        m_rowPieces.insert(m_rowPieces.end(), pieces);
    }
    void append(const QList<MetricLabel>& labels) { append({piece(labels)}); }
    // The label set of `row`, valid until the next call.
    QByteArrayView at(size_t row) {
        const size_t end = row + 1 < m_rowStarts.size() ? m_rowStarts[row + 1] : m_rowPieces.size();
        m_labelSet.truncate(0); // keeps its capacity
        for (size_t i = m_rowStarts[row]; i < end; ++i)
            m_labelSet.append(pieceText(m_rowPieces[i]));
        if (m_labelSet.isEmpty())
            return {};
        m_labelSet[0] = '{'; // the first label's comma
        m_labelSet.append('}');
        return m_labelSet;
    }

private:
    QByteArrayView pieceText(Piece piece) const {
        const qsizetype end =
            piece + 1 < m_pieceStarts.size() ? m_pieceStarts[piece + 1] : m_pieces.size();
        return QByteArrayView(m_pieces).sliced(m_pieceStarts[piece], end - m_pieceStarts[piece]);
    }

    QByteArray m_pieces;
    std::vector<qsizetype> m_pieceStarts;
    std::vector<Piece> m_rowPieces;
    std::vector<uint32_t> m_rowStarts; // where each row's pieces begin in m_rowPieces
    QByteArray m_labelSet;
};

// The per-partition rows, kept as where each partition is in the view: 8 bytes a row where
// a PartitionRow is 32 (1,000,000 rows at 100,000 groups of ten partitions).
class PartitionRows {
public:
    PartitionRows(const QList<GroupSnapshot>& groups, int64_t takenAtMs)
        : m_groups(groups)
        , m_takenAtMs(takenAtMs) {}
    void append(qsizetype group, qsizetype partition) {
        m_rows.push_back({uint32_t(group), uint32_t(partition)});
    }
    size_t size() const { return m_rows.size(); }
    PartitionRow operator[](size_t row) const {
        static const monitor::PartitionTrend noTrend;
        const GroupSnapshot& group = m_groups.at(m_rows[row].group);
        const uint32_t partition = m_rows[row].partition;
        const monitor::PartitionTrend& trend = partition < group.trend->partitions.size()
                                                   ? group.trend->partitions.at(partition)
                                                   : noTrend;
        return PartitionRow{group, group.partitions.at(partition), trend, m_takenAtMs};
    }

private:
    struct Location {
        uint32_t group;     // in the view's groups
        uint32_t partition; // in the group's partitions
    };
    const QList<GroupSnapshot>& m_groups;
    int64_t m_takenAtMs;
    std::vector<Location> m_rows;
};

// `rows[i]` is a Row (or a reference to one) for each i below rows.size().
template <typename Row, typename Rows>
void writeFamily(PrometheusTextWriter& writer, const MetricFamily<Row>& family, const Rows& rows,
                 LabelSets& labelSets) {
    writer.beginFamily(family.name, QString::fromUtf8(family.help), family.type);
    for (size_t i = 0; i < rows.size(); ++i)
        if (const auto value = family.value(rows[i]))
            writer.sample(labelSets.at(i), *value);
}

// A state set: one sample per state, 1 for the current one. The group's label set is
// extended in place rather than made again for each state.
void writeStateSet(PrometheusTextWriter& writer, const GroupStateSetFamily& family,
                   const std::vector<GroupRow>& groups, LabelSets& groupLabels) {
    writer.beginFamily(family.name, QString::fromUtf8(family.help), MetricType::Gauge);
    QList<QByteArray> stateLabels; // `,state="Stable"}` and so on
    const QStringList states = family.states();
    for (const QString& state : states) {
        QByteArray label = QByteArray(",") + family.label + "=\"";
        PrometheusTextWriter::appendEscapedLabelValue(label, state);
        stateLabels.append(label + "\"}");
    }
    QByteArray labels;
    for (size_t i = 0; i < groups.size(); ++i) {
        const QString current = family.current(groups[i]);
        const QByteArrayView groupLabelSet = groupLabels.at(i);
        for (qsizetype s = 0; s < states.size(); ++s) {
            labels.truncate(0);          // keeps its capacity
            if (groupLabelSet.isEmpty()) // no cluster name and the group named ""
                labels.append('{').append(QByteArrayView(stateLabels.at(s)).sliced(1));
            else
                labels.append(groupLabelSet.chopped(1)).append(stateLabels.at(s));
            writer.sample(labels, states.at(s) == current ? 1.0 : 0.0);
        }
    }
}

} // namespace

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

void writeClusterMetrics(PrometheusTextWriter& writer, const monitor::ClusterView& view,
                         const ExportOptions& options, int* groupCount) {
    const QString& cluster = options.clusterName;
    const int64_t takenAtMs = view.cluster.takenAt.isValid()
                                  ? view.cluster.takenAt.toMSecsSinceEpoch()
                                  : QDateTime::currentMSecsSinceEpoch();
    std::vector<GroupRow> groups;
    LabelSets groupLabels;
    PartitionRows partitions(view.cluster.groups, takenAtMs);
    LabelSets partitionLabels;
    std::vector<TopicRow> topics;
    LabelSets topicLabels;
    // The pieces of the partitions' label sets that rows share.
    QHash<QString, LabelSets::Piece> topicPieces;
    QHash<int32_t, LabelSets::Piece> partitionPieces;
    // The member labels of a partition's row, one piece per member of a group.
    auto memberPiece = [&partitionLabels](QHash<QString, LabelSets::Piece>& pieces,
                                          const PartitionSnapshot& partition) {
        const QString member =
            partition.host() + u'\n' + partition.memberId() + u'\n' + partition.clientId();
        auto found = pieces.constFind(member);
        if (found == pieces.cend())
            found =
                pieces.insert(member, partitionLabels.piece({{"member_host", partition.host()},
                                                             {"consumer_id", partition.memberId()},
                                                             {"client_id", partition.clientId()}}));
        return *found;
    };
    auto sharedPiece = [&partitionLabels](auto& pieces, const auto& key, const char* name,
                                          const QString& value) {
        auto found = pieces.constFind(key);
        if (found == pieces.cend())
            found = pieces.insert(key, partitionLabels.piece({{name, value}}));
        return *found;
    };
    QMap<kafka::TopicPartition, const PartitionSnapshot*> logPartitions;
    for (qsizetype g = 0; g < view.cluster.groups.size(); ++g) {
        const GroupSnapshot& group = view.cluster.groups.at(g);
        if (options.groupFilter && !options.groupFilter->match(group.groupId()).hasMatch())
            continue;
        groups.push_back(GroupRow{group});
        const QList<MetricLabel> groupLabelList{{"cluster_name", cluster},
                                                {"group", group.groupId()}};
        groupLabels.append(groupLabelList);
        std::optional<LabelSets::Piece> groupPiece;    // made at the group's first partition row
        QHash<QString, LabelSets::Piece> memberPieces; // by member, client and host
        QMap<QString, qsizetype> topicRowOf;           // this group's topics, by name
        for (qsizetype i = 0; i < group.partitions.size(); ++i) {
            const PartitionSnapshot& partition = group.partitions.at(i);
            const QString& topic = partition.topicPartition.topic;
            if (options.topicFilter && !options.topicFilter->match(topic).hasMatch())
                continue;
            if (options.granularity == Granularity::Partition) {
                partitions.append(g, i);
                if (!groupPiece)
                    groupPiece = partitionLabels.piece(groupLabelList);
                const int32_t number = partition.topicPartition.partition;
                const LabelSets::Piece topicPiece = sharedPiece(topicPieces, topic, "topic", topic);
                const LabelSets::Piece partitionPiece =
                    sharedPiece(partitionPieces, number, "partition", QString::number(number));
                if (options.memberLabels)
                    partitionLabels.append({*groupPiece, topicPiece, partitionPiece,
                                            memberPiece(memberPieces, partition)});
                else
                    partitionLabels.append({*groupPiece, topicPiece, partitionPiece});
            } else if (options.granularity == Granularity::Topic) {
                qsizetype index = topicRowOf.value(topic, -1);
                if (index < 0) {
                    index = qsizetype(topics.size());
                    topicRowOf.insert(topic, index);
                    topics.push_back(TopicRow{group, topic, {}, {}, {}});
                    topicLabels.append(
                        {{"cluster_name", cluster}, {"group", group.groupId()}, {"topic", topic}});
                }
                TopicRow& row = topics[size_t(index)];
                if (partition.lag) {
                    row.sumLag = row.sumLag.value_or(0) + double(*partition.lag);
                    row.maxLag = worse(row.maxLag, double(*partition.lag));
                }
                if (i < group.trend->partitions.size())
                    row.maxLagSeconds = worse(
                        row.maxLagSeconds, knownSeconds(group.trend->partitions.at(i).timeLag()));
            }
            // Every group's poll of a partition read the same log offsets; one is kept.
            const PartitionSnapshot*& log = logPartitions[partition.topicPartition];
            if (!log || (log->logEndOffset < 0 && partition.logEndOffset >= 0))
                log = &partition;
        }
    }
    std::vector<LogRow> logs;
    LabelSets logLabels;
    for (auto it = logPartitions.cbegin(); it != logPartitions.cend(); ++it) {
        logs.push_back(LogRow{**it});
        logLabels.append({{"cluster_name", cluster},
                          {"topic", it.key().topic},
                          {"partition", QString::number(it.key().partition)}});
    }

    if (options.granularity == Granularity::Partition)
        for (const auto& family : partitionFamilies())
            writeFamily(writer, family, partitions, partitionLabels);
    if (options.granularity == Granularity::Topic)
        for (const auto& family : topicFamilies())
            writeFamily(writer, family, topics, topicLabels);
    for (const auto& family : groupFamilies())
        writeFamily(writer, family, groups, groupLabels);
    for (const GroupStateSetFamily& family : groupStateSetFamilies())
        writeStateSet(writer, family, groups, groupLabels);
    writer.beginFamily("groupscope_consumergroup_info",
                       QStringLiteral("1 for each group, labelled with its type (classic, "
                                      "consumer, share, streams), whether it is a simple "
                                      "(offsets-only) group and its coordinator's broker id."),
                       MetricType::Gauge);
    for (const GroupRow& group : groups) {
        const kafka::GroupDescription& description = group.group.description;
        writer.sample(
            {{"cluster_name", cluster},
             {"group", group.group.groupId()},
             {"type", groupTypeLabel(description.type)},
             {"is_simple_consumer",
              isSimpleConsumer(group.group) ? QStringLiteral("true") : QStringLiteral("false")},
             {"coordinator_id", description.coordinator.id >= 0
                                    ? QString::number(description.coordinator.id)
                                    : QString()}},
            1.0);
    }
    for (const auto& family : logFamilies())
        writeFamily(writer, family, logs, logLabels);
    if (groupCount)
        *groupCount = int(groups.size());
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
