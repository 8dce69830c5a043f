#pragma once
// Which records to show: around an anchor (a group's committed offset, the earliest or
// latest offset, an offset typed in, a date-time), N before and N after, clamped to what the
// log holds. Shared by the Records tab and `groupscope-cli records`.

#include "kafka/Result.h"
#include "kafka/TopicPartition.h"
#include "records/Record.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace groupscope::kafka {
class AdminClient;
}

namespace groupscope::records {

class RecordBrowser;

struct RecordAnchor {
    enum class Kind { Committed, Earliest, Latest, Offset, Time };
    Kind kind = Kind::Committed;
    int64_t value = 0; // the offset, or the time in ms since the epoch

    // "committed", "earliest", "latest", an offset, or a date-time as reset's --to-datetime
    // takes it; an error that names the text otherwise.
    static kafka::Result<RecordAnchor> parse(const QString& text);
    QString describe() const; // "the committed offset", "offset 42", "2024-01-31T11:00:00.000Z"
};

// The anchor made an offset of one partition, with what the log holds around it.
struct ResolvedAnchor {
    kafka::TopicPartition partition;
    int64_t offset = -1;
    int64_t logStartOffset = -1;
    int64_t logEndOffset = -1;
    std::optional<int64_t> committedOffset; // the group's, when a group was given
    QString note; // said when the anchor was clamped ("offset 5 is below the log start 10…")
};

// Reads the log offsets (and the group's commit, when `groupId` is not empty) and makes the
// anchor an offset in [log start, log end]. An anchor outside is clamped and the note says
// so; "committed" without a commit on the partition is an error that says so.
kafka::Result<ResolvedAnchor> resolveAnchor(kafka::AdminClient& admin, const QString& groupId,
                                            const kafka::TopicPartition& partition,
                                            const RecordAnchor& anchor);

// Offsets without a record between two records shown (or before the first): transaction
// markers, aborted records under read_committed, or records compaction removed.
struct OffsetGap {
    int64_t from = -1; // first offset without a record
    int64_t to = -1;   // last one
};

struct RecordPage {
    ResolvedAnchor anchor;
    QList<Record> records; // in offset order
    QList<OffsetGap> gaps;
};

// Records from max(log start, anchor - before) to anchor + after (offsets), read with
// `browser` (moved there with one reposition).
kafka::Result<RecordPage> readAround(RecordBrowser& browser, const ResolvedAnchor& anchor,
                                     int before, int after,
                                     const std::atomic<bool>* cancelled = nullptr);

// The gaps between consecutive records of `records` starting at `firstOffset`.
QList<OffsetGap> gapsIn(const QList<Record>& records, int64_t firstOffset);

} // namespace groupscope::records
