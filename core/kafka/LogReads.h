#pragma once
// What the group protocol client reads from partition leaders for lag detail: last stable
// offsets and the first bytes of a log after an offset. Values only.

#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <QByteArray>
#include <QList>

#include <cstdint>

namespace groupscope::kafka {

// A partition's last stable offset: the end a read_committed consumer reads to
// (ListOffsets, isolation READ_COMMITTED, latest).
struct StableOffset {
    TopicPartition topicPartition;
    int64_t offset = -1;
    KafkaError error;
};

// A transaction the broker says was aborted, for a read_committed fetch to drop.
struct AbortedTransaction {
    int64_t producerId = -1;
    int64_t firstOffset = -1;
    friend bool operator==(const AbortedTransaction&, const AbortedTransaction&) = default;
};

// What to read of one partition: from `offset`, at most `maxBytes` (the leader may cut a
// batch there, or send one whole batch beyond it when it is the first).
struct LogReadRequest {
    TopicPartition topicPartition;
    int64_t offset = -1;
    int32_t maxBytes = 0;
};

// One partition of a read_committed Fetch: the raw record batches from `fetchOffset`,
// cut at the size asked for, with the offsets the leader reported beside them.
struct LogRead {
    TopicPartition topicPartition;
    int64_t fetchOffset = -1;
    int64_t highWatermark = -1;
    int64_t lastStableOffset = -1;
    int64_t logStartOffset = -1;
    QList<AbortedTransaction> abortedTransactions;
    QByteArray records;
    KafkaError error;
};

} // namespace groupscope::kafka
