#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>

namespace groupscope::lag {

// What the entries between a group's commit and the log end are, beside the plain lag
// (PartitionPosition::lag: log end - committed, Kafka's own figure, unchanged). Decided
// from the records where the log was read (LagDetailEvaluator), never from arithmetic
// alone; a figure that could not be computed is empty and `notComputed` says why.
struct LagDetail {
    // Whether the log was looked at. NotNeeded: no commit, or nothing after it.
    enum class Source { NotNeeded, Read, NotRead };
    Source source = Source::NotNeeded;

    // The end a read_committed consumer reads to (ListOffsets READ_COMMITTED), and the
    // records before it still to consume (never negative).
    std::optional<int64_t> lastStableOffset;
    std::optional<int64_t> lastStableLag;

    // The records the group still has to receive: data records after the commit, without
    // transaction markers and aborted records; records held back by an open transaction
    // count (they arrive when it commits). Never negative; empty when not decided.
    std::optional<int64_t> effectiveLag;
    int64_t transactionMarkers = 0;     // control records after the commit
    int64_t abortedRecords = 0;         // data of aborted transactions after the commit
    int64_t openTransactionRecords = 0; // entries after the last stable offset

    // The commit is below the log start: retention (or DeleteRecords) removed the records
    // after it. The group resumes per its auto.offset.reset, which is not known from
    // outside: "earliest" reads from the log start, "latest" skips to the log end.
    bool commitDeletedByRetention = false;
    int64_t recordsDeletedByRetention = 0; // log start - committed
    // The commit is past the log end (the log was truncated or recreated).
    bool commitPastLogEnd = false;

    // The oldest record the group has not consumed, read from the log at the commit.
    enum class OldestRecord {
        NotNeeded,   // nothing unconsumed (caught up, or only markers after the commit)
        Exact,       // timestampMs is the record's own timestamp
        BatchTime,   // compressed batch: timestampMs is its first record's (the header's)
        NoTimestamp, // the producer wrote CreateTime -1
        HeldBack,    // it is in an open transaction, which a read_committed fetch skips
        NotRead,     // not read (see notComputed)
    };
    OldestRecord oldestRecord = OldestRecord::NotNeeded;
    int64_t oldestRecordOffset = -1;
    int64_t oldestRecordTimestampMs = -1;
    bool oldestRecordLogAppendTime = false; // the topic stamps records on append

    // One line per figure that could not be computed: "effective lag: ...".
    QStringList notComputed;

    bool hasOldestRecordTime() const {
        return oldestRecord == OldestRecord::Exact || oldestRecord == OldestRecord::BatchTime;
    }
    // Why the effective lag is what it is, e.g. "1 transaction marker", "commit deleted by
    // retention", for the views' tooltips and the CLI.
    QString reason() const;
    friend bool operator==(const LagDetail&, const LagDetail&) = default;
};

// A LagDetail held by pointer and shared between copies, for the rows of a poll
// (PartitionSnapshot): the group list's polls never read the log, and at 10,000 groups
// on 100,000 partitions an inline LagDetail in every row of every poll alive cost about
// 50 MB. An empty one allocates nothing and reads as the default (NotNeeded).
// Reading never allocates; writing goes through edit(), which copies a shared detail first.
class SharedLagDetail {
public:
    SharedLagDetail() = default;
    // Implicit, for `row.lagDetail = evaluate(...)`; a default detail allocates nothing.
    SharedLagDetail(LagDetail detail);

    const LagDetail& get() const { return m_detail ? *m_detail : none(); }
    operator const LagDetail&() const { return get(); }
    const LagDetail* operator->() const { return &get(); }
    LagDetail& edit();

    friend bool operator==(const SharedLagDetail& a, const SharedLagDetail& b) {
        return a.m_detail == b.m_detail || a.get() == b.get();
    }

private:
    static const LagDetail& none();
    std::shared_ptr<LagDetail> m_detail; // never written while shared
};

} // namespace groupscope::lag
