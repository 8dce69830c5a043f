#pragma once

#include <librdkafka/rdkafka.h>

#include "consumer/OffsetResolver.h"
#include "consumer/PartitionTable.h"
#include "consumer/RepositionObserver.h"
#include "consumer/RepositionOutcome.h"
#include "consumer/RepositionRequest.h"
#include "kafka/RdKafkaHandles.h"

#include <QList>

#include <atomic>
#include <chrono>
#include <map>

namespace groupscope::consumer {

// How a change of assignment is handed to librdkafka: EAGER rebalances (and nothing else)
// replace the whole assignment; COOPERATIVE rebalances and manual assignment add and
// remove partitions incrementally.
enum class AssignmentMethod { Eager, Incremental };

// The one code path for every change of position of a ConsumerSession (see DESIGN.md,
// "The reposition engine"). For a set of partitions it does, in this order: lock them so
// no caller can take their messages, pause them in librdkafka, flush their buffers,
// resolve the targets to offsets, seek, set the position bookkeeping, commit if asked,
// resume, unlock. User resets, rebalances (assign and revoke), out-of-range recovery and
// jumps in time are entry points into that same sequence, never copies of it.
//
// It is also the only place that pauses and resumes partitions for backpressure, so no
// second piece of code can resume a partition behind a reposition's back. In all of core,
// only this class calls librdkafka's seek, pause, resume, assign, incremental assign and
// unassign, and commit (the rebalance callback's fallback included: acknowledgeRebalance).
//
// Thread: everything here runs on the session's fetch thread, between two polls or inside
// the rebalance callback, so a message librdkafka hands out is never half-way between the
// poll and a buffer while a reposition runs.
class RepositionEngine {
public:
    struct Settings {
        std::chrono::milliseconds operationTimeout{10000};
        RepositionTarget whenNoCommittedOffset = RepositionTarget::earliest();
        RepositionTarget afterOutOfRange = RepositionTarget::earliest();
        QString groupId; // empty without a group
    };

    RepositionEngine(rd_kafka_t* consumer, PartitionTable& partitions, Settings settings);

    void setObserver(RepositionObserver* observer) { m_observer.store(observer); }

    // A user's reset or a jump in time: the partitions must be assigned.
    QList<RepositionOutcome> reposition(const RepositionRequest& request);
    // Partitions joining the assignment (a rebalance's assign, or manual assignment),
    // positioned at their targets (usually the committed offset).
    QList<RepositionOutcome> assign(const RepositionRequest& request, AssignmentMethod method);
    // Partitions leaving the assignment; their processed positions are committed first
    // unless the assignment was lost.
    QList<RepositionOutcome> revoke(const QList<kafka::TopicPartition>& partitions,
                                    bool commitProcessedPositions, AssignmentMethod method);
    // Partitions whose fetch position fell outside the log (librdkafka stopped them).
    QList<RepositionOutcome> recoverOutOfRange(const QList<kafka::TopicPartition>& partitions,
                                               AssignmentMethod method);

    // The rebalance callback's last resort, when assign() or revoke() failed with an
    // exception: the group waits for an answer to every rebalance, so librdkafka gets one
    // all the same, in the engine's order (bookkeeping, assign or unassign, unlock).
    // Positions are left to librdkafka (committed offsets, else auto.offset.reset) and
    // nothing is committed. Never throws: it runs where nothing may cross into C.
    void acknowledgeRebalance(rd_kafka_resp_err_t code,
                              const rd_kafka_topic_partition_list_t* partitions,
                              AssignmentMethod method) noexcept;

    // Backpressure: a full buffer pauses its partition; a drained one resumes it.
    void holdForBackpressure(const kafka::TopicPartition& partition);
    void releaseBackpressure(const kafka::TopicPartition& partition);

    // Commits each partition's processed position (the offset after the last message
    // handed out). Not a change of position, but it shares the engine's commit step.
    QList<RepositionOutcome> commitProcessedPositions();

private:
    enum class Mode { Seek, Assign, Revoke, Recover };
    using Outcomes = std::map<kafka::TopicPartition, RepositionOutcome>;

    QList<RepositionOutcome> run(Mode mode, const RepositionRequest& request,
                                 AssignmentMethod method);

    void notifyStepDone(RepositionStep step, const QList<kafka::TopicPartition>& partitions);
    kafka::KafkaError injectedFault(RepositionStep step, const kafka::TopicPartition& partition);
    void recordError(RepositionOutcome& outcome, kafka::KafkaError error);

    QList<kafka::TopicPartition> lockStep(Mode mode, Outcomes& outcomes);
    QList<kafka::TopicPartition> pauseStep(const QList<kafka::TopicPartition>& partitions,
                                           Outcomes& outcomes);
    void resolveStep(Mode mode, const QList<kafka::TopicPartition>& partitions, Outcomes& outcomes);
    void seekStep(const QList<kafka::TopicPartition>& partitions, Outcomes& outcomes);
    void assignStep(const QList<kafka::TopicPartition>& partitions, AssignmentMethod method,
                    Outcomes& outcomes);
    void reassignStep(const QList<kafka::TopicPartition>& partitions, AssignmentMethod method,
                      Outcomes& outcomes);
    void commitStep(const QList<kafka::TopicPartition>& partitions, Outcomes& outcomes);
    void resumeStep(const QList<kafka::TopicPartition>& partitions, Outcomes& outcomes);
    void unassignStep(const QList<kafka::TopicPartition>& partitions, AssignmentMethod method,
                      Outcomes& outcomes);

    // Seeks the given partitions to their outcome's newPosition; returns those that failed.
    QList<kafka::TopicPartition> seekTo(const QList<kafka::TopicPartition>& partitions,
                                        Outcomes& outcomes);
    kafka::KafkaError commitOffsets(const QList<QPair<kafka::TopicPartition, int64_t>>& offsets,
                                    std::map<kafka::TopicPartition, kafka::KafkaError>& failures);

    rd_kafka_t* m_consumer;
    PartitionTable& m_partitions;
    Settings m_settings;
    OffsetResolver m_resolver;
    std::atomic<RepositionObserver*> m_observer{nullptr};
};

} // namespace groupscope::consumer
