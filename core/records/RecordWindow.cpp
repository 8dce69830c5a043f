#include "records/RecordWindow.h"

#include "kafka/AdminClient.h"
#include "offsets/ResetSpec.h"
#include "records/RecordBrowser.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::records {

using kafka::KafkaError;

kafka::Result<RecordAnchor> RecordAnchor::parse(const QString& text) {
    const QString word = text.trimmed().toLower();
    if (word == u"committed")
        return RecordAnchor{Kind::Committed, 0};
    if (word == u"earliest")
        return RecordAnchor{Kind::Earliest, 0};
    if (word == u"latest")
        return RecordAnchor{Kind::Latest, 0};
    bool isNumber = false;
    const qlonglong offset = word.toLongLong(&isNumber);
    if (isNumber) {
        if (offset < 0)
            return KafkaError::invalidArgument(
                QStringLiteral("offset %1 is negative: give an offset of 0 or more").arg(offset));
        return RecordAnchor{Kind::Offset, offset};
    }
    const auto time = offsets::parseResetDateTime(text.trimmed());
    if (!time)
        return KafkaError::invalidArgument(
            QStringLiteral("\"%1\" is neither committed, earliest, latest, an offset nor a "
                           "date-time like 2024-01-31T11:00:00.000 (%2)")
                .arg(text, time.error().message));
    return RecordAnchor{Kind::Time, time.value()};
}

QString RecordAnchor::describe() const {
    switch (kind) {
    case Kind::Committed:
        return QStringLiteral("the committed offset");
    case Kind::Earliest:
        return QStringLiteral("the earliest offset");
    case Kind::Latest:
        return QStringLiteral("the latest offset");
    case Kind::Offset:
        return QStringLiteral("offset %1").arg(value);
    case Kind::Time:
        return offsets::formatResetDateTime(value);
    }
    return {};
}

namespace {

// The anchor within [log start, log end], and what the note says when it had to move.
void clamp(ResolvedAnchor& resolved, int64_t wanted, const QString& what) {
    resolved.offset = wanted;
    if (wanted < resolved.logStartOffset) {
        resolved.offset = resolved.logStartOffset;
        resolved.note = QStringLiteral("%1 (%2) is below the log start %3: showing from %3")
                            .arg(what)
                            .arg(wanted)
                            .arg(resolved.logStartOffset);
    } else if (wanted > resolved.logEndOffset) {
        resolved.offset = resolved.logEndOffset;
        resolved.note = QStringLiteral("%1 (%2) is above the log end %3: showing up to it")
                            .arg(what)
                            .arg(wanted)
                            .arg(resolved.logEndOffset);
    }
}

} // namespace

kafka::Result<ResolvedAnchor> resolveAnchor(kafka::AdminClient& admin, const QString& groupId,
                                            const kafka::TopicPartition& partition,
                                            const RecordAnchor& anchor) {
    ResolvedAnchor resolved;
    resolved.partition = partition;
    auto logOffsets = admin.logOffsets({partition});
    if (!logOffsets)
        return logOffsets.error();
    if (logOffsets.value().isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("partition %1 does not exist (deleted, or being recreated)")
                .arg(partition.toString()));
    const kafka::LogOffsets& log = logOffsets.value().first();
    if (log.error.code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
        return KafkaError::invalidArgument(
            QStringLiteral("partition %1 does not exist (deleted, or being recreated)")
                .arg(partition.toString()));
    if (log.error.isError())
        return KafkaError::invalidArgument(
            QStringLiteral("%1: %2").arg(partition.toString(), log.error.toString()));
    resolved.logStartOffset = log.logStartOffset;
    resolved.logEndOffset = log.logEndOffset;

    if (!groupId.isEmpty()) {
        auto committed = admin.listCommittedOffsets({groupId});
        if (!committed)
            return committed.error();
        for (const kafka::CommittedOffset& commit : committed.value().value(groupId))
            if (commit.topicPartition == partition && commit.offset >= 0)
                resolved.committedOffset = commit.offset;
    }

    switch (anchor.kind) {
    case RecordAnchor::Kind::Committed:
        if (!resolved.committedOffset)
            return KafkaError::invalidArgument(
                groupId.isEmpty()
                    ? QStringLiteral("the committed offset needs a group (--group)")
                    : QStringLiteral("group '%1' has no committed offset on %2: give another "
                                     "place to start (earliest, latest, an offset, a date-time)")
                          .arg(groupId, partition.toString()));
        clamp(resolved, *resolved.committedOffset,
              QStringLiteral("the committed offset of group '%1'").arg(groupId));
        break;
    case RecordAnchor::Kind::Earliest:
        resolved.offset = resolved.logStartOffset;
        break;
    case RecordAnchor::Kind::Latest:
        resolved.offset = resolved.logEndOffset;
        break;
    case RecordAnchor::Kind::Offset:
        clamp(resolved, anchor.value, QStringLiteral("offset"));
        break;
    case RecordAnchor::Kind::Time: {
        auto found = admin.offsetsForTimestamps({{partition, anchor.value}});
        if (!found)
            return found.error();
        const int64_t offset = found.value().value(partition, -1);
        if (offset < 0) {
            resolved.offset = resolved.logEndOffset;
            resolved.note = QStringLiteral("no record of %1 is as new as %2: showing the log end")
                                .arg(partition.toString(), anchor.describe());
        } else {
            clamp(resolved, offset, QStringLiteral("the offset at %1").arg(anchor.describe()));
        }
        break;
    }
    }
    return resolved;
}

QList<OffsetGap> gapsIn(const QList<Record>& records, int64_t firstOffset) {
    QList<OffsetGap> gaps;
    int64_t expected = firstOffset;
    for (const Record& record : records) {
        if (record.offset > expected)
            gaps.append({expected, record.offset - 1});
        expected = record.offset + 1;
    }
    return gaps;
}

kafka::Result<RecordPage> readAround(RecordBrowser& browser, const ResolvedAnchor& anchor,
                                     int before, int after, const std::atomic<bool>* cancelled) {
    RecordPage page;
    page.anchor = anchor;
    const int64_t first = std::max(anchor.logStartOffset, anchor.offset - before);
    const int64_t last = std::min(anchor.logEndOffset, anchor.offset + after); // exclusive
    if (last <= first)
        return page;
    auto records = browser.readFrom(first, int(last - first), last, cancelled);
    if (!records)
        return records.error();
    page.records = records.value();
    page.gaps = gapsIn(page.records, first);
    return page;
}

} // namespace groupscope::records
