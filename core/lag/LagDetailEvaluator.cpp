#include "lag/LagDetailEvaluator.h"

#include "kafka/records/RecordBatch.h"

#include <QSet>

#include <algorithm>

namespace groupscope::lag {

using kafka::records::ControlType;
using kafka::records::RecordBatchHeader;

namespace {

// The records of a data batch in [from, to): the header's count when the whole batch is
// inside, the records read when they reach, else the offsets (compaction may have removed
// some of those, so this can only overstate what is left).
int64_t recordsIn(const RecordBatchHeader& batch, int64_t from, int64_t to) {
    // The header's count, but never more than the offsets it spans: a header is bytes
    // from the network too.
    if (from <= batch.baseOffset && to > batch.lastOffset())
        return std::min<int64_t>(batch.recordCount, to - from);
    if (batch.complete && batch.compression() == 0 && batch.records.size() == batch.recordCount) {
        const int64_t inside =
            std::count_if(batch.records.cbegin(), batch.records.cend(),
                          [&](const auto& r) { return r.offset >= from && r.offset < to; });
        return std::min(inside, to - from); // corrupt bytes may repeat an offset
    }
    return to - from;
}

// The oldest unconsumed record's time from the batch that holds it.
void takeOldest(const RecordBatchHeader& batch, int64_t from, LagDetail& detail) {
    detail.oldestRecordLogAppendTime = batch.logAppendTime();
    const auto record = std::find_if(batch.records.cbegin(), batch.records.cend(),
                                     [&](const auto& r) { return r.offset >= from; });
    if (batch.logAppendTime()) {
        // Every record of the batch carries the time it was appended.
        detail.oldestRecordOffset = std::max(from, batch.baseOffset);
        detail.oldestRecordTimestampMs = batch.maxTimestamp;
        detail.oldestRecord = LagDetail::OldestRecord::Exact;
    } else if (record != batch.records.cend()) {
        detail.oldestRecordOffset = record->offset;
        detail.oldestRecordTimestampMs = record->timestampMs;
        detail.oldestRecord = record->timestampMs < 0 ? LagDetail::OldestRecord::NoTimestamp
                                                      : LagDetail::OldestRecord::Exact;
    } else {
        // Compressed, or cut before the record: the batch's first timestamp, said so.
        detail.oldestRecordOffset = std::max(from, batch.baseOffset);
        detail.oldestRecordTimestampMs = batch.baseTimestamp;
        detail.oldestRecord = batch.baseTimestamp < 0 ? LagDetail::OldestRecord::NoTimestamp
                                                      : LagDetail::OldestRecord::BatchTime;
    }
    if (detail.oldestRecord == LagDetail::OldestRecord::NoTimestamp) {
        detail.oldestRecordTimestampMs = -1;
        detail.notComputed.append(QStringLiteral("oldest record's age: the record has no "
                                                 "timestamp (its producer wrote CreateTime -1)"));
    }
}

} // namespace

LagDetail LagDetailEvaluator::evaluate(const kafka::PartitionPosition& position,
                                       const kafka::StableOffset* stable,
                                       const kafka::LogRead* read, const QString& notReadReason) {
    LagDetail detail;
    if (!position.committedOffset)
        return detail; // no commit: the views say so; nothing to decide
    const int64_t committed = *position.committedOffset;
    if (position.logEndOffset < 0) {
        detail.source = LagDetail::Source::NotRead;
        detail.oldestRecord = LagDetail::OldestRecord::NotRead;
        detail.notComputed.append(QStringLiteral("effective lag: the log end is not known"));
        return detail;
    }
    if (position.logStartOffset >= 0 && committed < position.logStartOffset) {
        detail.commitDeletedByRetention = true;
        detail.recordsDeletedByRetention = position.logStartOffset - committed;
        detail.oldestRecord = LagDetail::OldestRecord::NotRead;
        return detail;
    }
    if (committed > position.logEndOffset) {
        detail.commitPastLogEnd = true;
        detail.oldestRecord = LagDetail::OldestRecord::NotRead;
        return detail;
    }
    if (committed == position.logEndOffset) {
        detail.effectiveLag = 0;
        return detail;
    }

    if (stable && !stable->error && stable->offset >= 0) {
        detail.lastStableOffset = stable->offset;
        detail.lastStableLag = std::max<int64_t>(0, stable->offset - committed);
    } else if (stable) {
        detail.notComputed.append(
            QStringLiteral("last stable offset: ") +
            (stable->error ? stable->error.message : QStringLiteral("the broker gave none")));
    }
    detail.oldestRecord = LagDetail::OldestRecord::NotRead;
    if (!read) {
        detail.source = LagDetail::Source::NotRead;
        detail.notComputed.append(
            QStringLiteral("effective lag and oldest record: not read") +
            (notReadReason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(notReadReason)));
        return detail;
    }
    if (read->error) {
        detail.source = LagDetail::Source::NotRead;
        detail.notComputed.append(
            QStringLiteral("effective lag and oldest record: the records could not be read: ") +
            read->error.message);
        return detail;
    }
    detail.source = LagDetail::Source::Read;
    classify(position, *read, detail);
    return detail;
}

void LagDetailEvaluator::classify(const kafka::PartitionPosition& position,
                                  const kafka::LogRead& read, LagDetail& detail) {
    const int64_t committed = *position.committedOffset;
    const int64_t logEnd = position.logEndOffset;
    // A read_committed fetch returns records below its last stable offset only; what lies
    // between that and the log end is held back by an open transaction.
    const int64_t stableEnd =
        read.lastStableOffset >= 0 ? read.lastStableOffset : read.highWatermark;
    const int64_t upTo = std::clamp(std::min(stableEnd, logEnd), committed, logEnd);

    QList<kafka::AbortedTransaction> aborted = read.abortedTransactions;
    std::sort(aborted.begin(), aborted.end(),
              [](const auto& a, const auto& b) { return a.firstOffset < b.firstOffset; });
    qsizetype nextAborted = 0;
    QSet<int64_t> abortingProducers;

    const kafka::records::DecodedBatches decoded =
        kafka::records::decodeRecordBatches(read.records);
    int64_t covered = committed;
    int64_t dataRecords = 0;
    bool oldestFound = false;
    for (const RecordBatchHeader& batch : decoded.batches) {
        if (batch.baseOffset >= upTo)
            break;
        // As Kafka's consumer does: a transaction becomes aborted from its first offset.
        while (nextAborted < aborted.size() &&
               aborted[nextAborted].firstOffset <= batch.lastOffset())
            abortingProducers.insert(aborted[nextAborted++].producerId);
        // From where the batches before ended: a log's batches follow each other, and
        // overlapping ones (corrupt bytes) must not count an offset twice.
        const int64_t from = std::max(batch.baseOffset, covered);
        const int64_t to = std::min(batch.lastOffset() + 1, upTo);
        if (to <= from)
            continue;
        covered = to;
        if (batch.isControl()) {
            detail.transactionMarkers += 1; // a control batch holds one marker
            if (batch.controlType == ControlType::Abort)
                abortingProducers.remove(batch.producerId);
        } else if (batch.isTransactional() && abortingProducers.contains(batch.producerId)) {
            detail.abortedRecords += recordsIn(batch, from, to);
        } else {
            dataRecords += recordsIn(batch, from, to);
            if (!oldestFound) {
                oldestFound = true;
                takeOldest(batch, from, detail);
            }
        }
        if (!batch.complete)
            break;
    }
    // An empty answer at the commit covers nothing; batches may skip offsets compaction
    // removed, which are no records at all.
    // A read from an earlier poll (kept while the commit stays) knows nothing of what was
    // written after it: the oldest record still holds, the effective lag is not decided.
    if (read.highWatermark >= 0 && read.highWatermark < logEnd) {
        detail.notComputed.append(QStringLiteral("effective lag: the log grew past the last "
                                                 "read (lag too large to read every refresh)"));
        return;
    }
    const bool decided = covered >= upTo;
    detail.openTransactionRecords = logEnd - upTo;
    if (!decided) {
        detail.notComputed.append(
            QStringLiteral("effective lag: more entries after the commit than one read covers "
                           "(%1 of %2 read)%3")
                .arg(covered - committed)
                .arg(upTo - committed)
                .arg(decoded.problem.isEmpty() ? QString()
                                               : QStringLiteral(": ") + decoded.problem));
        if (!oldestFound && !decoded.problem.isEmpty())
            detail.notComputed.append(QStringLiteral("oldest record: ") + decoded.problem);
        return;
    }
    detail.effectiveLag = dataRecords + detail.openTransactionRecords;
    if (!oldestFound)
        detail.oldestRecord = detail.openTransactionRecords > 0
                                  ? LagDetail::OldestRecord::HeldBack
                                  : LagDetail::OldestRecord::NotNeeded;
}

} // namespace groupscope::lag
