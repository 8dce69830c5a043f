#include "offsets/ResetPlanner.h"

#include <librdkafka/rdkafka.h>

#include <QDateTime>
#include <QMap>
#include <QSet>

#include <limits>

namespace groupscope::offsets {

using kafka::KafkaError;
using kafka::TopicPartition;

namespace {

QString partitionName(const PlanRow& row) {
    return row.topicPartition.toString();
}

// Kafka's checkOffsetsRange: below the log start -> log start, above the log end -> log
// end, each with a warning.
int64_t clampToLog(PlanRow& row, int64_t requested) {
    if (requested > row.logEndOffset) {
        row.warnings.append(QStringLiteral("offset %1 is after the log end; clamped to %2")
                                .arg(requested)
                                .arg(row.logEndOffset));
        return row.logEndOffset;
    }
    if (requested < row.logStartOffset) {
        row.warnings.append(QStringLiteral("offset %1 is before the log start; clamped to %2")
                                .arg(requested)
                                .arg(row.logStartOffset));
        return row.logStartOffset;
    }
    return requested;
}

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

kafka::Result<QList<RowRequest>> ResetPlanner::expandScope(const QStringList& groupIds,
                                                           const ResetScope& scope,
                                                           const ResetSpec& spec) {
    QList<RowRequest> requests;
    if (scope.allTopics) {
        auto committed = m_admin.listCommittedOffsets(groupIds);
        if (!committed)
            return committed.error();
        for (const QString& group : groupIds) {
            const auto offsets = committed.value().value(group);
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
    ResetPlan plan;
    plan.plannedAtMs = m_now();

    // 1. Which partitions exist and have a leader, topic by topic, so one missing topic
    //    marks its own rows instead of failing the whole plan.
    QMap<QString, QHash<int32_t, int32_t>> leadersByTopic; // topic -> partition -> leader
    QHash<QString, QString> topicErrors;
    QStringList groupIds;
    for (const RowRequest& request : requests) {
        if (!groupIds.contains(request.groupId))
            groupIds.append(request.groupId);
        const QString& topic = request.topicPartition.topic;
        if (leadersByTopic.contains(topic) || topicErrors.contains(topic))
            continue;
        auto partitions = m_admin.describePartitions({topic});
        if (!partitions) {
            if (partitions.error().code != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
                return partitions.error(); // the cluster itself is the problem
            topicErrors.insert(topic, partitions.error().message);
            continue;
        }
        auto& leaders = leadersByTopic[topic];
        for (const auto& info : partitions.value())
            leaders.insert(info.topicPartition.partition, info.leader);
    }

    // 2. Committed offsets of every group, log offsets of every valid partition.
    auto committed = m_admin.listCommittedOffsets(groupIds);
    if (!committed)
        return committed.error();
    QList<TopicPartition> validPartitions;
    for (const RowRequest& request : requests) {
        const auto leaders = leadersByTopic.constFind(request.topicPartition.topic);
        if (leaders != leadersByTopic.cend() &&
            leaders->value(request.topicPartition.partition, -1) >= 0)
            validPartitions.append(request.topicPartition);
    }
    auto logOffsets = m_admin.logOffsets(validPartitions);
    if (!logOffsets)
        return logOffsets.error();
    QHash<TopicPartition, kafka::LogOffsets> logs;
    for (const auto& offsets : logOffsets.value())
        logs.insert(offsets.topicPartition, offsets);

    // 3. Timestamp lookups, batched. Rows of different groups may share a partition but
    //    not a timestamp, so the lookup runs once per distinct timestamp.
    QMap<int64_t, QList<TopicPartition>> lookupsByTimestamp;
    for (const RowRequest& request : requests)
        if (isTimeBased(request.spec.mode) && logs.contains(request.topicPartition) &&
            !lookupsByTimestamp[request.spec.lookupTimestampMs(plan.plannedAtMs)].contains(
                request.topicPartition))
            lookupsByTimestamp[request.spec.lookupTimestampMs(plan.plannedAtMs)].append(
                request.topicPartition);
    QHash<QPair<int64_t, TopicPartition>, int64_t> offsetsForTimes;
    for (auto it = lookupsByTimestamp.cbegin(); it != lookupsByTimestamp.cend(); ++it) {
        QList<QPair<TopicPartition, int64_t>> lookups;
        for (const TopicPartition& tp : it.value())
            lookups.append({tp, it.key()});
        auto found = m_admin.offsetsForTimestamps(lookups);
        if (!found)
            return found.error();
        for (auto f = found.value().cbegin(); f != found.value().cend(); ++f)
            offsetsForTimes.insert({it.key(), f.key()}, f.value());
    }

    // 4. Resolve each row. Lookups go through hashes: plans of thousands of partitions
    //    must not cost rows x partitions.
    QHash<QPair<QString, TopicPartition>, int64_t> committedByRow;
    for (auto group = committed.value().cbegin(); group != committed.value().cend(); ++group)
        for (const auto& offset : group.value())
            committedByRow.insert({group.key(), offset.topicPartition}, offset.offset);
    QSet<QPair<QString, TopicPartition>> seen;
    for (const RowRequest& request : requests) {
        PlanRow row;
        row.groupId = request.groupId;
        row.topicPartition = request.topicPartition;
        row.spec = request.spec;
        row.origin = request.origin;
        if (seen.contains({request.groupId, request.topicPartition})) {
            row.error = QStringLiteral("partition %1 appears twice for group '%2'")
                            .arg(partitionName(row), row.groupId);
            plan.rows.append(row);
            continue;
        }
        seen.insert({request.groupId, request.topicPartition});
        if (const auto found = committedByRow.constFind({request.groupId, request.topicPartition});
            found != committedByRow.cend())
            row.committedOffset = *found;

        const auto leaders = leadersByTopic.constFind(row.topicPartition.topic);
        if (topicErrors.contains(row.topicPartition.topic)) {
            row.error = topicErrors.value(row.topicPartition.topic);
        } else if (!leaders->contains(row.topicPartition.partition)) {
            row.error = QStringLiteral("partition %1 does not exist (topic '%2' has %3 partitions)")
                            .arg(row.topicPartition.partition)
                            .arg(row.topicPartition.topic)
                            .arg(leaders->size());
        } else if (leaders->value(row.topicPartition.partition) < 0) {
            row.error = QStringLiteral("partition %1 has no leader").arg(partitionName(row));
        } else if (const auto& log = logs.value(row.topicPartition); log.error) {
            row.error = log.error.message;
        } else {
            row.setLogRange(log);
        }
        if (!row.error.isEmpty()) {
            plan.rows.append(row);
            continue;
        }

        switch (row.spec.mode) {
        case ResetMode::ToOffset:
            row.newOffset = clampToLog(row, row.spec.offset);
            break;
        case ResetMode::ShiftBy: {
            int64_t shifted = 0;
            if (!row.committedOffset)
                row.error =
                    QStringLiteral("cannot shift %1: the group has no committed offset there")
                        .arg(partitionName(row));
            else if (__builtin_add_overflow(*row.committedOffset, row.spec.offset, &shifted))
                row.error =
                    QStringLiteral("shift by %1 overflows the offset range").arg(row.spec.offset);
            else
                row.newOffset = clampToLog(row, shifted);
            break;
        }
        case ResetMode::ToDatetime:
        case ResetMode::ByDuration: {
            const int64_t timestamp = row.spec.lookupTimestampMs(plan.plannedAtMs);
            const int64_t offset = offsetsForTimes.value({timestamp, row.topicPartition}, -1);
            if (offset >= 0) {
                row.newOffset = offset;
            } else {
                row.newOffset = row.logEndOffset;
                row.warnings.append(
                    QStringLiteral("no record at or after %1; falls back to the log end %2")
                        .arg(formatResetDateTime(timestamp))
                        .arg(row.logEndOffset));
            }
            break;
        }
        case ResetMode::ToEarliest:
            row.newOffset = row.logStartOffset;
            break;
        case ResetMode::ToLatest:
            row.newOffset = row.logEndOffset;
            break;
        case ResetMode::ToCurrent:
            if (row.committedOffset) {
                row.newOffset = *row.committedOffset;
            } else {
                row.newOffset = row.logEndOffset;
                row.warnings.append(
                    QStringLiteral("no committed offset; to-current takes the log end %1")
                        .arg(row.logEndOffset));
            }
            break;
        }
        plan.rows.append(row);
    }
    for (PlanRow& row : plan.rows)
        if (!row.error.isEmpty() && !row.origin.isEmpty())
            row.error = row.origin + QStringLiteral(": ") + row.error;
    std::stable_sort(plan.rows.begin(), plan.rows.end(), [](const PlanRow& a, const PlanRow& b) {
        if (a.groupId != b.groupId)
            return a.groupId < b.groupId;
        return a.topicPartition < b.topicPartition;
    });
    return plan;
}

} // namespace groupscope::offsets
