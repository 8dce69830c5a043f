#pragma once

#include "kafka/AdminClient.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>
#include <QPair>
#include <QSet>

namespace groupscope::monitor {

// Reads what plain lag arithmetic cannot say (LagDetail: last stable offset, transaction
// markers, open transactions, the oldest unconsumed record) for the partitions of a poll,
// as few requests as possible:
// - only partitions with 0 < lag (committed between log start and log end) are asked about;
//   caught-up partitions, partitions without a commit and commits below the log start are
//   decided from the offsets alone;
// - their last stable offsets: one ListOffsets READ_COMMITTED per leader;
// - their first bytes after the commit (8 KiB up to a lag of 100, 1 KiB above: the oldest
//   record only): one read_committed Fetch per leader, for the
//   (partition, commit) pairs not read before. A read is kept while the commit stays and
//   reused while the log end stays too; with a lag above rereadLagLimit it is reused even
//   as the log grows (only the oldest record comes from it then).
// So a fleet of caught-up groups costs nothing, and a lagging one two requests per leader.
// Keep one reader per poller: the kept reads are what make the next poll cheap.
class LagDetailReader {
public:
    struct Options {
        // Up to smallLagLimit entries after the commit the read must cover them all (about
        // 100 markers fit in 8 KiB); above it only the oldest record is wanted, whose batch
        // header and first record fit in far less.
        int64_t smallLagLimit = 100;
        int32_t smallLagBytes = 8 * 1024;
        int32_t largeLagBytes = 1024;
        int64_t rereadLagLimit = 1000;
    };
    // The requests of the last poll (as of its endFill()), by what they were for.
    struct Cost {
        int stableOffsetPartitions = 0; // asked in ListOffsets READ_COMMITTED
        int readPartitions = 0;         // asked in Fetch
        int reusedReads = 0;            // answered from an earlier read
    };

    LagDetailReader() = default;
    explicit LagDetailReader(Options options)
        : m_options(options) {}

    // One poll's fill, in steps, so that the poll can hand each group on as soon as it is
    // assembled instead of holding every group's rows until the reads are done:
    // 1. want() each committed partition of the groups at hand (as its row will show it);
    // 2. readWanted(): the requests for everything wanted since the last call and not read
    //    in this poll yet;
    // 3. fill() each of those groups: its PartitionSnapshot::lagDetail, from those reads;
    //    a poll of many groups repeats 1-3 for each slice of its groups;
    // 4. endFill(): lets go of the poll's answers and details (a table of up to one entry
    //    per row), keeping only the good reads the next poll may reuse.
    // Through the librdkafka fallback (a profile the own protocol client does not speak) the
    // figures that need the log say so, with the fallback's note.
    void want(kafka::GroupType type, const kafka::PartitionPosition& partition);
    void readWanted(kafka::AdminClient& admin);
    void fill(GroupSnapshot& group);
    void endFill();
    const Cost& lastCost() const { return m_cost; }

private:
    using ReadKey = QPair<kafka::TopicPartition, int64_t>; // partition, committed offset
    // What decides a partition's detail in one poll: its commit and its log's range (the
    // last stable offset and the records read are looked up by partition and commit).
    struct DetailKey {
        kafka::TopicPartition topicPartition;
        int64_t committed = 0;
        int64_t logStart = 0;
        int64_t logEnd = 0;
        friend bool operator==(const DetailKey&, const DetailKey&) = default;
        friend size_t qHash(const DetailKey& key, size_t seed = 0) {
            return qHashMulti(seed, key.topicPartition, key.committed, key.logStart, key.logEnd);
        }
    };
    // Step 1's list, emptied by step 2.
    struct Wanted {
        QList<kafka::TopicPartition> stableOffsets;
        QSet<kafka::TopicPartition> stableOffsetsAsked;
        QList<kafka::LogReadRequest> reads;
        QSet<ReadKey> readsAsked;
    };
    Options m_options;
    Wanted m_wanted;
    // Step 2's answers, for step 3: every read of this poll (failed ones too, which say
    // why), the last stable offsets, and the details made so far. Groups at the same commit
    // of a partition share one detail: many groups sit at the log end of the same
    // partitions, and a detail per row was the largest part of an exporter's poll at
    // 100,000 groups.
    QHash<ReadKey, kafka::LogRead> m_pollReads;
    QHash<kafka::TopicPartition, kafka::StableOffset> m_stable;
    QHash<DetailKey, lag::SharedLagDetail> m_evaluated;
    // The good reads of the last poll: kept while their partition and commit are in the
    // polls, and reused while they still tell the truth (see the class comment).
    QHash<ReadKey, kafka::LogRead> m_reads;
    Cost m_pollCost; // of the poll under way
    Cost m_cost;     // of the last poll
};

} // namespace groupscope::monitor
