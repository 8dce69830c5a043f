#pragma once

#include "kafka/ConnectionProfile.h"
#include "offsets/ResetPlan.h"

#include <QHash>

#include <atomic>
#include <chrono>

namespace groupscope::offsets {

// The record a group would read next after a reset: where consumption restarts.
struct RecordPreview {
    kafka::TopicPartition topicPartition;
    int64_t requestedOffset = -1; // the plan's new offset
    int64_t offset = -1;          // the record found (later than requested across a gap)
    int64_t timestampMs = -1;
    QByteArray keyHead;   // the first bytes of the key
    QByteArray valueHead; // the first bytes of the value
    qsizetype valueSize = 0;
    bool atLogEnd = false; // nothing to read yet: the group would wait for new records
    QString error;

    QString describe() const; // one line for tables
    // The key and the value's first bytes as printable text (others as '.'), "…" when cut.
    QString keyText() const;
    QString valueText() const;
    friend bool operator==(const RecordPreview&, const RecordPreview&) = default;
};

// Fetches the record at each row's new offset with the consumer module, without a group
// (it never joins anybody's group, so previewing triggers no rebalance). Partitions are
// read in parallel; the call is bounded by `timeout`, and ends early (the rows not read yet
// saying so) once `cancelled` is set.
class RecordPreviewer {
public:
    using Key = QPair<kafka::TopicPartition, int64_t>; // partition and new offset

    static QHash<Key, RecordPreview> preview(const kafka::ConnectionProfile& profile,
                                             const ResetPlan& plan,
                                             std::chrono::milliseconds timeout, int headBytes = 48,
                                             const std::atomic<bool>* cancelled = nullptr);
};

} // namespace groupscope::offsets
