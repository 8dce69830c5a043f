#include "offsets/ResetPlanner.h"

#include "offsets/ResetRowResolution.h"

#include <librdkafka/rdkafka.h>

#include <QDateTime>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <limits>

namespace groupscope::offsets {

using kafka::KafkaError;
using kafka::TopicPartition;

namespace {

bool isTimeBased(ResetMode mode) {
    return mode == ResetMode::ToDatetime || mode == ResetMode::ByDuration;
}

} // namespace

kafka::Result<QPair<QString, QList<int32_t>>> parseTopicArgument(const QString& argument) {
    const qsizetype colon = argument.indexOf(u':');
    const QString topic = colon < 0 ? argument : argument.left(colon);
    if (!OffsetsCsv::isValidTopicName(topic))
        return KafkaError::invalidArgument(
            QStringLiteral("--topic \"%1\": \"%2\" is not a valid topic name")
                .arg(argument, topic));
    QList<int32_t> partitions;
    if (colon >= 0) {
        const QStringList parts = argument.mid(colon + 1).split(u',');
        for (const QString& part : parts) {
            auto partition = parseInt64(part, QStringLiteral("partition"));
            if (!partition || partition.value() < 0 ||
                partition.value() > std::numeric_limits<int32_t>::max())
                return KafkaError::invalidArgument(
                    QStringLiteral("--topic \"%1\": invalid partition \"%2\"").arg(argument, part));
            if (!partitions.contains(int32_t(partition.value())))
                partitions.append(int32_t(partition.value()));
        }
    }
    return qMakePair(topic, partitions);
}

ResetPlanner::ResetPlanner(kafka::AdminClient& admin, NowFunction now)
    : m_admin(admin)
    , m_now(now ? std::move(now) : [] { return int64_t(QDateTime::currentMSecsSinceEpoch()); }) {}

kafka::KafkaError ResetPlanner::noCommitsToCopy(const QString& sourceGroup) {
    return KafkaError::invalidArgument(
        QStringLiteral("group '%1' has no committed offsets (it does not exist, or never "
                       "committed): there is nothing to copy; nothing was planned")
            .arg(sourceGroup));
}

kafka::Result<QList<RowRequest>> ResetPlanner::expandScope(const QStringList& groupIds,
                                                           const ResetScope& scope,
                                                           const ResetSpec& spec) {
    QList<RowRequest> requests;
    if (scope.allTopics) {
        // Copying covers where the source group stands, besides the group's own partitions.
        const bool copying = spec.mode == ResetMode::ToGroup;
        QStringList fetched = groupIds;
        if (copying && !fetched.contains(spec.sourceGroup))
            fetched.append(spec.sourceGroup);
        auto committed = m_admin.listCommittedOffsets(fetched);
        if (!committed)
            return committed.error();
        const QList<kafka::CommittedOffset> sourceOffsets =
            copying ? committed.value().value(spec.sourceGroup) : QList<kafka::CommittedOffset>();
        if (copying && sourceOffsets.isEmpty())
            return noCommitsToCopy(spec.sourceGroup);
        for (const QString& group : groupIds) {
            auto offsets = committed.value().value(group);
            if (copying) {
                for (const auto& source : sourceOffsets)
                    if (std::none_of(offsets.cbegin(), offsets.cend(), [&](const auto& own) {
                            return own.topicPartition == source.topicPartition;
                        }))
                        offsets.append(source);
                std::sort(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) {
                    return a.topicPartition < b.topicPartition;
                });
            }
            if (offsets.isEmpty())
                return KafkaError::invalidArgument(
                    QStringLiteral("group '%1' has no committed offsets, so --all-topics covers "
                                   "nothing; name the "
                                   "topics with --topic")
                        .arg(group));
            for (const auto& offset : offsets)
                requests.append({group, offset.topicPartition, spec});
        }
        return requests;
    }
    if (scope.topics.isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("choose the partitions: --all-topics or --topic T[:P,...]"));
    QList<TopicPartition> partitions;
    for (const QString& argument : scope.topics) {
        auto parsed = parseTopicArgument(argument);
        if (!parsed)
            return parsed.error();
        const auto& [topic, listed] = parsed.value();
        if (listed.isEmpty()) {
            auto all = m_admin.topicPartitions({topic});
            if (!all)
                return all.error();
            partitions.append(all.value());
        } else {
            for (int32_t partition : listed)
                partitions.append({topic, partition});
        }
    }
    for (const QString& group : groupIds)
        for (const TopicPartition& tp : partitions)
            requests.append({group, tp, spec});
    return requests;
}

QList<RowRequest> ResetPlanner::fromCsvRows(const QList<OffsetsCsvRow>& rows,
                                            const QString& sourceName) {
    QList<RowRequest> requests;
    for (const OffsetsCsvRow& row : rows)
        requests.append({row.groupId, row.topicPartition, ResetSpec::toOffset(row.offset),
                         sourceName.isEmpty()
                             ? QString()
                             : QStringLiteral("%1:%2").arg(sourceName).arg(row.line)});
    return requests;
}

kafka::Result<ResetPlan> ResetPlanner::plan(const QList<RowRequest>& requests) {
    auto facts = fetchFacts(requests);
    if (!facts)
        return facts.error();
    return resolveResetPlan(requests, facts.value());
}

kafka::Result<PlanFacts> ResetPlanner::fetchFacts(const QList<RowRequest>& requests) {
    PlanFacts facts;
    facts.plannedAtMs = m_now();
    if (auto status = fetchLeaders(requests, facts); !status)
        return status.error();

    QStringList groupIds;
    QStringList sourceGroups; // of to-group rows: their commits are the new offsets
    for (const RowRequest& request : requests) {
        if (!groupIds.contains(request.groupId))
            groupIds.append(request.groupId);
        if (request.spec.mode == ResetMode::ToGroup &&
            !sourceGroups.contains(request.spec.sourceGroup))
            sourceGroups.append(request.spec.sourceGroup);
    }
    QStringList fetched = groupIds;
    for (const QString& source : sourceGroups)
        if (!fetched.contains(source))
            fetched.append(source);
    auto committed = m_admin.listCommittedOffsets(fetched);
    if (!committed)
        return committed.error();
    for (const QString& source : sourceGroups)
        if (committed.value().value(source).isEmpty())
            return noCommitsToCopy(source);
    for (auto group = committed.value().cbegin(); group != committed.value().cend(); ++group)
        for (const auto& offset : group.value())
            facts.committed.insert({group.key(), offset.topicPartition}, offset.offset);

    // Log offsets of every partition that exists and has a leader, in one batch.
    QList<TopicPartition> validPartitions;
    QSet<TopicPartition> listed;
    for (const RowRequest& request : requests) {
        const auto leaders = facts.leadersByTopic.constFind(request.topicPartition.topic);
        if (leaders != facts.leadersByTopic.cend() &&
            leaders->value(request.topicPartition.partition, -1) >= 0 &&
            !listed.contains(request.topicPartition)) {
            listed.insert(request.topicPartition);
            validPartitions.append(request.topicPartition);
        }
    }
    auto logOffsets = m_admin.logOffsets(validPartitions);
    if (!logOffsets)
        return logOffsets.error();
    for (const auto& offsets : logOffsets.value())
        facts.logs.insert(offsets.topicPartition, offsets);

    if (auto status = fetchOffsetsForTimes(requests, facts); !status)
        return status.error();
    return facts;
}

// Which partitions exist and have a leader, topic by topic, so one missing topic marks its
// own rows instead of failing the whole plan.
kafka::Status ResetPlanner::fetchLeaders(const QList<RowRequest>& requests, PlanFacts& facts) {
    for (const RowRequest& request : requests) {
        const QString& topic = request.topicPartition.topic;
        if (facts.leadersByTopic.contains(topic) || facts.topicErrors.contains(topic))
            continue;
        auto partitions = m_admin.describePartitions({topic});
        if (!partitions) {
            if (partitions.error().code != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
                return partitions.error(); // the cluster itself is the problem
            facts.topicErrors.insert(topic, partitions.error().message);
            continue;
        }
        auto& leaders = facts.leadersByTopic[topic];
        for (const auto& info : partitions.value())
            leaders.insert(info.topicPartition.partition, info.leader);
    }
    return kafka::Done{};
}

// Timestamp lookups, batched. Rows of different groups may share a partition but not a
// timestamp, so the lookup runs once per distinct timestamp, for all its partitions.
kafka::Status ResetPlanner::fetchOffsetsForTimes(const QList<RowRequest>& requests,
                                                 PlanFacts& facts) {
    QMap<int64_t, QList<TopicPartition>> lookupsByTimestamp;
    for (const RowRequest& request : requests) {
        if (!isTimeBased(request.spec.mode) || !facts.logs.contains(request.topicPartition))
            continue;
        auto& partitions = lookupsByTimestamp[request.spec.lookupTimestampMs(facts.plannedAtMs)];
        if (!partitions.contains(request.topicPartition))
            partitions.append(request.topicPartition);
    }
    for (auto it = lookupsByTimestamp.cbegin(); it != lookupsByTimestamp.cend(); ++it) {
        QList<QPair<TopicPartition, int64_t>> lookups;
        for (const TopicPartition& tp : it.value())
            lookups.append({tp, it.key()});
        auto found = m_admin.offsetsForTimestamps(lookups);
        if (!found)
            return found.error();
        for (auto f = found.value().cbegin(); f != found.value().cend(); ++f)
            facts.offsetsForTimes.insert({it.key(), f.key()}, f.value());
    }
    return kafka::Done{};
}

} // namespace groupscope::offsets
