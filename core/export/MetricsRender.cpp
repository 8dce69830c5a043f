#include "export/MetricsRender.h"

#include "export/LabelSets.h"
#include "kafka/GroupTypes.h"

#include <QHash>
#include <QMap>

#include <optional>

namespace groupscope::exporter {

namespace {

using monitor::GroupSnapshot;
using monitor::PartitionSnapshot;

std::optional<double> worse(std::optional<double> current, std::optional<double> candidate) {
    return candidate && (!current || *candidate > *current) ? candidate : current;
}

QString groupTypeLabel(kafka::GroupType type) {
    return type == kafka::GroupType::Unknown ? QString() : kafka::groupTypeName(type).toLower();
}

bool isSimpleConsumer(const GroupSnapshot& group) {
    return group.description.protocolType.isEmpty() &&
           (group.description.type == kafka::GroupType::Classic ||
            group.description.type == kafka::GroupType::Unknown);
}

int64_t takenAtMs(const monitor::ClusterView& view) {
    return view.cluster.takenAt.isValid() ? view.cluster.takenAt.toMSecsSinceEpoch()
                                          : QDateTime::currentMSecsSinceEpoch();
}

// A state set: one sample per state, 1 for the current one. The group's label set is
// extended in place rather than made again for each state.
void writeStateSet(PrometheusTextWriter& writer, const GroupStateSetFamily& family,
                   const std::vector<GroupRow>& groups, const LabelSets& groupLabels) {
    writer.beginFamily(family.name, QString::fromUtf8(family.help), MetricType::Gauge);
    QList<QByteArray> stateLabels; // `,state="Stable"}` and so on
    const QStringList states = family.states();
    for (const QString& state : states) {
        QByteArray label = QByteArray(",") + family.label + "=\"";
        PrometheusTextWriter::appendEscapedLabelValue(label, state);
        stateLabels.append(label + "\"}");
    }
    QByteArray groupLabelText;
    QByteArray labels;
    for (size_t i = 0; i < groups.size(); ++i) {
        const QString current = family.current(groups[i]);
        const QByteArrayView groupLabelSet = groupLabels.at(i, groupLabelText);
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

struct MetricsRender::Rows {
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

    Rows(const monitor::ClusterView& view, const ExportOptions& options);

    QString cluster;
    std::vector<GroupRow> groups;
    LabelSets groupLabels;
    PartitionRows partitions;
    LabelSets partitionLabels;
    std::vector<TopicRow> topics;
    LabelSets topicLabels;
    std::vector<LogRow> logs;
    LabelSets logLabels;
};

MetricsRender::Rows::Rows(const monitor::ClusterView& view, const ExportOptions& options)
    : cluster(options.clusterName)
    , partitions(view.cluster.groups, takenAtMs(view)) {
    // The pieces of the partitions' label sets that rows share.
    QHash<QString, LabelSets::Piece> topicPieces;
    QHash<int32_t, LabelSets::Piece> partitionPieces;
    // The member labels of a partition's row, one piece per member of a group.
    auto memberPiece = [this](QHash<QString, LabelSets::Piece>& pieces,
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
    auto sharedPiece = [this](auto& pieces, const auto& key, const char* name,
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
    for (auto it = logPartitions.cbegin(); it != logPartitions.cend(); ++it) {
        logs.push_back(LogRow{**it});
        logLabels.append({{"cluster_name", cluster},
                          {"topic", it.key().topic},
                          {"partition", QString::number(it.key().partition)}});
    }
}

MetricsRender::MetricsRender(const monitor::ClusterView& view, const ExportOptions& options)
    : m_rows(std::make_unique<Rows>(view, options)) {
    const Rows& rows = *m_rows;
    if (options.granularity == Granularity::Partition)
        for (const auto& family : partitionFamilies())
            m_families.emplace_back([&rows, &family](PrometheusTextWriter& writer) {
                exporter::writeFamily(writer, family, rows.partitions, rows.partitionLabels);
            });
    if (options.granularity == Granularity::Topic)
        for (const auto& family : topicFamilies())
            m_families.emplace_back([&rows, &family](PrometheusTextWriter& writer) {
                exporter::writeFamily(writer, family, rows.topics, rows.topicLabels);
            });
    for (const auto& family : groupFamilies())
        m_families.emplace_back([&rows, &family](PrometheusTextWriter& writer) {
            exporter::writeFamily(writer, family, rows.groups, rows.groupLabels);
        });
    for (const GroupStateSetFamily& family : groupStateSetFamilies())
        m_families.emplace_back([&rows, &family](PrometheusTextWriter& writer) {
            writeStateSet(writer, family, rows.groups, rows.groupLabels);
        });
    m_families.emplace_back([&rows](PrometheusTextWriter& writer) {
        writer.beginFamily("groupscope_consumergroup_info",
                           QStringLiteral("1 for each group, labelled with its type (classic, "
                                          "consumer, share, streams), whether it is a simple "
                                          "(offsets-only) group and its coordinator's broker id."),
                           MetricType::Gauge);
        for (const GroupRow& group : rows.groups) {
            const kafka::GroupDescription& description = group.group.description;
            writer.sample(
                {{"cluster_name", rows.cluster},
                 {"group", group.group.groupId()},
                 {"type", groupTypeLabel(description.type)},
                 {"is_simple_consumer",
                  isSimpleConsumer(group.group) ? QStringLiteral("true") : QStringLiteral("false")},
                 {"coordinator_id", description.coordinator.id >= 0
                                        ? QString::number(description.coordinator.id)
                                        : QString()}},
                1.0);
        }
    });
    for (const auto& family : logFamilies())
        m_families.emplace_back([&rows, &family](PrometheusTextWriter& writer) {
            exporter::writeFamily(writer, family, rows.logs, rows.logLabels);
        });
}

MetricsRender::~MetricsRender() = default;

int MetricsRender::groupCount() const {
    return int(m_rows->groups.size());
}

} // namespace groupscope::exporter
