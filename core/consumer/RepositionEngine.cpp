#include "consumer/RepositionEngine.h"

#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

namespace groupscope::consumer {

using kafka::KafkaError;
using kafka::TopicPartition;
using kafka::TopicPartitionListHandle;

namespace {

KafkaError partitionError(int code, const QString& what, const TopicPartition& partition) {
    return KafkaError::fromCode(code, QStringLiteral("%1 %2").arg(what, partition.toString()));
}

} // namespace

RepositionEngine::RepositionEngine(rd_kafka_t* consumer, PartitionTable& partitions,
                                   Settings settings)
    : m_consumer(consumer)
    , m_partitions(partitions)
    , m_settings(settings)
    , m_resolver(consumer, settings.operationTimeout, settings.whenNoCommittedOffset) {}

QList<RepositionOutcome> RepositionEngine::reposition(const RepositionRequest& request) {
    return run(Mode::Seek, request, AssignmentMethod::Incremental);
}

QList<RepositionOutcome> RepositionEngine::assign(const RepositionRequest& request,
                                                  AssignmentMethod method) {
    return run(Mode::Assign, request, method);
}

QList<RepositionOutcome> RepositionEngine::revoke(const QList<TopicPartition>& partitions,
                                                  bool commitProcessedPositions,
                                                  AssignmentMethod method) {
    RepositionRequest request;
    for (const TopicPartition& partition : partitions)
        request.targets.insert(partition, RepositionTarget::committed());
    request.commit = commitProcessedPositions;
    return run(Mode::Revoke, request, method);
}

QList<RepositionOutcome>
RepositionEngine::recoverOutOfRange(const QList<TopicPartition>& partitions,
                                    AssignmentMethod method) {
    RepositionRequest request;
    for (const TopicPartition& partition : partitions)
        request.targets.insert(partition, m_settings.afterOutOfRange);
    return run(Mode::Recover, request, method);
}

void RepositionEngine::notifyStepDone(RepositionStep step,
                                      const QList<TopicPartition>& partitions) {
    if (RepositionObserver* observer = m_observer.load())
        observer->stepDone(step, partitions);
}

KafkaError RepositionEngine::injectedFault(RepositionStep step, const TopicPartition& partition) {
    RepositionObserver* observer = m_observer.load();
    return observer ? observer->injectedFault(step, partition) : KafkaError{};
}

void RepositionEngine::recordError(RepositionOutcome& outcome, KafkaError error) {
    if (!outcome.error.isError())
        outcome.error = std::move(error);
}

QList<RepositionOutcome> RepositionEngine::run(Mode mode, const RepositionRequest& request,
                                               AssignmentMethod method) {
    Outcomes outcomes;
    for (auto it = request.targets.cbegin(); it != request.targets.cend(); ++it) {
        RepositionOutcome outcome;
        outcome.topicPartition = it.key();
        outcome.target = it.value();
        outcomes.emplace(it.key(), std::move(outcome));
    }

    // 1. Lock: from here on no caller can take these partitions' messages.
    const QList<TopicPartition> locked = lockStep(mode, outcomes);
    notifyStepDone(RepositionStep::Lock, locked);

    // 2. Pause in librdkafka. Only partitions that are fetching need it: new ones (assign)
    //    do not fetch yet, revoked ones were stopped by the rebalance, and out-of-range
    //    ones were stopped by librdkafka when it reported the error.
    QList<TopicPartition> paused;
    if (mode == Mode::Seek)
        paused = pauseStep(locked, outcomes);
    notifyStepDone(RepositionStep::Pause, locked);

    // 3. Flush: what is buffered was fetched from the old position.
    for (const TopicPartition& partition : locked)
        outcomes[partition].messagesDropped = int64_t(m_partitions.flush(partition));
    notifyStepDone(RepositionStep::Flush, locked);

    // 4. Resolve timestamps, logical and committed targets to offsets.
    resolveStep(mode, locked, outcomes);
    notifyStepDone(RepositionStep::Resolve, locked);

    // 5. Seek (or hand the partitions to librdkafka at their offsets).
    switch (mode) {
    case Mode::Seek:
        seekStep(locked, outcomes);
        break;
    case Mode::Assign:
        assignStep(locked, method, outcomes);
        break;
    case Mode::Recover:
        reassignStep(locked, method, outcomes);
        break;
    case Mode::Revoke:
        break;
    }
    notifyStepDone(RepositionStep::Seek, locked);

    // 6. Bookkeeping: the processed and fetch positions now match librdkafka's.
    if (mode != Mode::Revoke)
        for (const TopicPartition& partition : locked)
            m_partitions.setPosition(partition, outcomes[partition].newPosition);
    notifyStepDone(RepositionStep::Bookkeeping, locked);

    // 7. Commit, where asked (a revoke commits what was processed).
    if (request.commit)
        commitStep(locked, outcomes);
    notifyStepDone(RepositionStep::Commit, locked);

    // 8. Resume everything this reposition paused, and anything paused for backpressure:
    //    its buffer is empty now. No partition leaves the engine paused.
    QList<TopicPartition> toResume = paused;
    for (const TopicPartition& partition : locked)
        if (!toResume.contains(partition) && m_partitions.isPausedForBackpressure(partition))
            toResume.append(partition);
    resumeStep(toResume, outcomes);
    // librdkafka gets back every partition it revoked, also those that were never ours.
    if (mode == Mode::Revoke)
        unassignStep(request.targets.keys(), method, outcomes);
    notifyStepDone(RepositionStep::Resume, locked);

    // 9. Unlock (revoked partitions leave the table instead).
    for (const TopicPartition& partition : locked) {
        if (mode == Mode::Revoke)
            m_partitions.remove(partition);
        else
            m_partitions.unlock(partition);
    }
    notifyStepDone(RepositionStep::Unlock, locked);

    QList<RepositionOutcome> result;
    result.reserve(qsizetype(outcomes.size()));
    for (auto& [partition, outcome] : outcomes)
        result.append(std::move(outcome));
    return result;
}

QList<TopicPartition> RepositionEngine::lockStep(Mode mode, Outcomes& outcomes) {
    QList<TopicPartition> locked;
    for (auto& [partition, outcome] : outcomes) {
        if (mode == Mode::Assign) {
            m_partitions.addLocked(partition);
            locked.append(partition);
        } else if (m_partitions.lock(partition)) {
            locked.append(partition);
        } else {
            recordError(outcome, partitionError(RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION,
                                                QStringLiteral("not assigned:"), partition));
        }
    }
    return locked;
}

QList<TopicPartition> RepositionEngine::pauseStep(const QList<TopicPartition>& partitions,
                                                  Outcomes& outcomes) {
    QList<TopicPartition> paused;
    if (partitions.isEmpty())
        return paused;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(partitions);
    rd_kafka_pause_partitions(m_consumer, list.get());
    for (int i = 0; i < list->cnt; ++i) {
        const TopicPartition partition = kafka::toTopicPartition(list->elems[i]);
        if (list->elems[i].err)
            recordError(outcomes[partition],
                        partitionError(list->elems[i].err, QStringLiteral("pausing"), partition));
        else
            paused.append(partition);
    }
    return paused;
}

void RepositionEngine::resolveStep(Mode mode, const QList<TopicPartition>& partitions,
                                   Outcomes& outcomes) {
    if (mode == Mode::Revoke) {
        for (const TopicPartition& partition : partitions)
            outcomes[partition].newPosition = m_partitions.consumedPosition(partition);
        return;
    }
    QMap<TopicPartition, RepositionTarget> targets;
    for (const TopicPartition& partition : partitions) {
        if (KafkaError fault = injectedFault(RepositionStep::Resolve, partition); fault) {
            recordError(outcomes[partition], std::move(fault));
            continue;
        }
        targets.insert(partition, outcomes[partition].target);
    }
    const auto resolved = m_resolver.resolve(targets);
    for (const TopicPartition& partition : partitions) {
        RepositionOutcome& outcome = outcomes[partition];
        const auto it = resolved.find(partition);
        if (it != resolved.end() && it->second.ok()) {
            outcome.newPosition = it->second.value();
            continue;
        }
        if (it != resolved.end())
            recordError(outcome, it->second.error());
        // The target cannot be resolved. A seek goes back to the processed position so the
        // flushed messages are fetched again rather than skipped; a new partition starts
        // wherever librdkafka's own rules put it (position unknown).
        outcome.newPosition = mode == Mode::Seek ? m_partitions.consumedPosition(partition) : -1;
    }
}

QList<TopicPartition> RepositionEngine::seekTo(const QList<TopicPartition>& partitions,
                                               Outcomes& outcomes) {
    QList<TopicPartition> failed;
    QList<TopicPartition> toSeek;
    for (const TopicPartition& partition : partitions) {
        RepositionOutcome& outcome = outcomes[partition];
        if (outcome.newPosition < 0) {
            failed.append(partition);
        } else if (KafkaError fault = injectedFault(RepositionStep::Seek, partition); fault) {
            recordError(outcome, std::move(fault));
            failed.append(partition);
        } else {
            toSeek.append(partition);
        }
    }
    if (toSeek.isEmpty())
        return failed;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(toSeek);
    for (int i = 0; i < list->cnt; ++i)
        list->elems[i].offset = outcomes[kafka::toTopicPartition(list->elems[i])].newPosition;
    // A seek with a timeout waits until the fetcher has taken the new position, which
    // guarantees that nothing fetched from the old position is handed out afterwards.
    const KafkaError callError = KafkaError::fromError(
        rd_kafka_seek_partitions(m_consumer, list.get(), int(m_settings.operationTimeout.count())));
    for (int i = 0; i < list->cnt; ++i) {
        const TopicPartition partition = kafka::toTopicPartition(list->elems[i]);
        const int code = list->elems[i].err ? list->elems[i].err : callError.code;
        if (code) {
            recordError(outcomes[partition],
                        partitionError(code, QStringLiteral("seeking"), partition));
            failed.append(partition);
        }
    }
    return failed;
}

void RepositionEngine::seekStep(const QList<TopicPartition>& partitions, Outcomes& outcomes) {
    const QList<TopicPartition> failed = seekTo(partitions, outcomes);
    // A failed seek leaves librdkafka's position unknown, and the flushed messages would be
    // skipped on resume. Seek once more to the processed position; if that fails too, say
    // the position is unknown so the fetch thread accepts whatever comes next.
    QList<TopicPartition> retry;
    for (const TopicPartition& partition : failed) {
        const int64_t processed = m_partitions.consumedPosition(partition);
        if (processed >= 0 && processed != outcomes[partition].newPosition) {
            outcomes[partition].newPosition = processed;
            retry.append(partition);
        } else {
            outcomes[partition].newPosition = -1;
        }
    }
    for (const TopicPartition& partition : seekTo(retry, outcomes))
        outcomes[partition].newPosition = -1;
}

void RepositionEngine::assignStep(const QList<TopicPartition>& partitions, AssignmentMethod method,
                                  Outcomes& outcomes) {
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(partitions);
    for (int i = 0; i < list->cnt; ++i) {
        const int64_t offset = outcomes[kafka::toTopicPartition(list->elems[i])].newPosition;
        // An unresolved partition is left to librdkafka: committed offset, else its reset.
        list->elems[i].offset = offset >= 0 ? offset : RD_KAFKA_OFFSET_INVALID;
    }
    KafkaError error;
    if (method == AssignmentMethod::Incremental)
        error = KafkaError::fromError(rd_kafka_incremental_assign(m_consumer, list.get()));
    else
        error = KafkaError::fromCode(rd_kafka_assign(m_consumer, list.get()),
                                     QStringLiteral("assigning partitions"));
    if (!error)
        return;
    for (const TopicPartition& partition : partitions) {
        recordError(outcomes[partition], error);
        outcomes[partition].newPosition = -1;
    }
}

void RepositionEngine::reassignStep(const QList<TopicPartition>& partitions,
                                    AssignmentMethod method, Outcomes& outcomes) {
    // librdkafka stops a partition whose offset is out of range (auto.offset.reset=error),
    // and a stopped partition cannot be sought: it is handed back at its new offset.
    QList<TopicPartition> resolved;
    for (const TopicPartition& partition : partitions)
        if (outcomes[partition].newPosition >= 0)
            resolved.append(partition);
    if (resolved.isEmpty())
        return;
    KafkaError error;
    if (method == AssignmentMethod::Incremental) {
        TopicPartitionListHandle list = kafka::makeTopicPartitionList(resolved);
        error = KafkaError::fromError(rd_kafka_incremental_unassign(m_consumer, list.get()));
        for (int i = 0; i < list->cnt; ++i)
            list->elems[i].offset = outcomes[kafka::toTopicPartition(list->elems[i])].newPosition;
        if (!error)
            error = KafkaError::fromError(rd_kafka_incremental_assign(m_consumer, list.get()));
    } else {
        // EAGER allows only whole assignments: the other partitions are handed back at
        // their fetch positions, so their buffers continue without a gap or a repeat.
        const QList<TopicPartition> all = m_partitions.partitions();
        TopicPartitionListHandle list = kafka::makeTopicPartitionList(all);
        for (int i = 0; i < list->cnt; ++i) {
            const TopicPartition partition = kafka::toTopicPartition(list->elems[i]);
            const int64_t offset = resolved.contains(partition)
                                       ? outcomes[partition].newPosition
                                       : m_partitions.fetchPosition(partition);
            list->elems[i].offset = offset >= 0 ? offset : RD_KAFKA_OFFSET_INVALID;
        }
        error = KafkaError::fromCode(rd_kafka_assign(m_consumer, list.get()),
                                     QStringLiteral("reassigning partitions"));
    }
    if (!error)
        return;
    for (const TopicPartition& partition : resolved) {
        recordError(outcomes[partition], error);
        outcomes[partition].newPosition = -1;
    }
}

KafkaError RepositionEngine::commitOffsets(const QList<QPair<TopicPartition, int64_t>>& offsets,
                                           std::map<TopicPartition, KafkaError>& failures) {
    if (offsets.isEmpty())
        return {};
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(offsets);
    // An asynchronous commit on a private queue, waited for with a deadline: a synchronous
    // commit has none, and a broker that is down must not hang the fetch thread.
    kafka::QueueHandle queue(rd_kafka_queue_new(m_consumer));
    const rd_kafka_resp_err_t code =
        rd_kafka_commit_queue(m_consumer, list.get(), queue.get(), nullptr, nullptr);
    if (code)
        return KafkaError::fromCode(code, QStringLiteral("committing offsets"));
    kafka::EventHandle event(
        rd_kafka_queue_poll(queue.get(), int(m_settings.operationTimeout.count())));
    if (!event)
        return KafkaError::timeout(QStringLiteral("committing offsets timed out after %1 ms")
                                       .arg(m_settings.operationTimeout.count()));
    if (const rd_kafka_resp_err_t eventCode = rd_kafka_event_error(event.get()); eventCode) {
        KafkaError error = KafkaError::fromCode(eventCode, QStringLiteral("committing offsets"));
        if (const char* text = rd_kafka_event_error_string(event.get()))
            error.message = QStringLiteral("committing offsets: %1").arg(QString::fromUtf8(text));
        return error;
    }
    if (const auto* result = rd_kafka_event_topic_partition_list(event.get()))
        for (int i = 0; i < result->cnt; ++i)
            if (result->elems[i].err)
                failures.emplace(kafka::toTopicPartition(result->elems[i]),
                                 partitionError(result->elems[i].err, QStringLiteral("committing"),
                                                kafka::toTopicPartition(result->elems[i])));
    return {};
}

void RepositionEngine::commitStep(const QList<TopicPartition>& partitions, Outcomes& outcomes) {
    QList<QPair<TopicPartition, int64_t>> offsets;
    for (const TopicPartition& partition : partitions) {
        RepositionOutcome& outcome = outcomes[partition];
        if (KafkaError fault = injectedFault(RepositionStep::Commit, partition); fault)
            recordError(outcome, std::move(fault));
        else if (outcome.newPosition >= 0)
            offsets.append({partition, outcome.newPosition});
    }
    std::map<TopicPartition, KafkaError> failures;
    const KafkaError error = commitOffsets(offsets, failures);
    for (const auto& [partition, offset] : offsets) {
        RepositionOutcome& outcome = outcomes[partition];
        if (error)
            recordError(outcome, error);
        else if (const auto failure = failures.find(partition); failure != failures.end())
            recordError(outcome, failure->second);
        else
            outcome.committed = true;
    }
}

void RepositionEngine::resumeStep(const QList<TopicPartition>& partitions, Outcomes& outcomes) {
    if (partitions.isEmpty())
        return;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(partitions);
    rd_kafka_resume_partitions(m_consumer, list.get());
    for (int i = 0; i < list->cnt; ++i) {
        const TopicPartition partition = kafka::toTopicPartition(list->elems[i]);
        m_partitions.setPausedForBackpressure(partition, false);
        if (list->elems[i].err)
            recordError(outcomes[partition],
                        partitionError(list->elems[i].err, QStringLiteral("resuming"), partition));
    }
}

void RepositionEngine::unassignStep(const QList<TopicPartition>& partitions,
                                    AssignmentMethod method, Outcomes& outcomes) {
    KafkaError error;
    if (method == AssignmentMethod::Incremental) {
        TopicPartitionListHandle list = kafka::makeTopicPartitionList(partitions);
        error = KafkaError::fromError(rd_kafka_incremental_unassign(m_consumer, list.get()));
    } else {
        error = KafkaError::fromCode(rd_kafka_assign(m_consumer, nullptr),
                                     QStringLiteral("unassigning partitions"));
    }
    if (error)
        for (const TopicPartition& partition : partitions)
            recordError(outcomes[partition], error);
}

void RepositionEngine::acknowledgeRebalance(rd_kafka_resp_err_t code,
                                            const rd_kafka_topic_partition_list_t* partitions,
                                            AssignmentMethod method) noexcept {
    const bool assigning = code == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
    QList<TopicPartition> affected;
    try {
        for (int i = 0; partitions && i < partitions->cnt; ++i)
            affected.append(kafka::toTopicPartition(partitions->elems[i]));
        // The failed run may have left these partitions locked, half-positioned or with
        // buffered messages; an assigned partition starts over at an unknown position.
        for (const TopicPartition& partition : affected) {
            if (!assigning)
                continue;
            m_partitions.addLocked(partition);
            m_partitions.flush(partition);
            m_partitions.setPosition(partition, -1);
        }
    } catch (...) {
        // out of memory at worst; librdkafka must be answered below all the same
    }
    if (method == AssignmentMethod::Incremental)
        kafka::ErrorHandle(assigning ? rd_kafka_incremental_assign(m_consumer, partitions)
                                     : rd_kafka_incremental_unassign(m_consumer, partitions));
    else
        rd_kafka_assign(m_consumer, assigning ? partitions : nullptr);
    try {
        for (const TopicPartition& partition : affected) {
            if (assigning)
                m_partitions.unlock(partition);
            else
                m_partitions.remove(partition);
        }
    } catch (...) {
    }
}

void RepositionEngine::holdForBackpressure(const TopicPartition& partition) {
    TopicPartitionListHandle list = kafka::makeTopicPartitionList({partition});
    rd_kafka_pause_partitions(m_consumer, list.get());
    // PartitionTable::route() marked the partition paused already.
    if (list->elems[0].err)
        m_partitions.setPausedForBackpressure(partition, false);
}

void RepositionEngine::releaseBackpressure(const TopicPartition& partition) {
    // Only a partition this engine paused is resumed: resuming one that is not paused
    // would make librdkafka drop what it already fetched without fetching it again.
    if (!m_partitions.takeResumeRequest(partition))
        return;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList({partition});
    rd_kafka_resume_partitions(m_consumer, list.get());
    m_partitions.setPausedForBackpressure(partition, false);
}

QList<RepositionOutcome> RepositionEngine::commitProcessedPositions() {
    Outcomes outcomes;
    QList<TopicPartition> partitions;
    for (const TopicPartition& partition : m_partitions.partitions()) {
        RepositionOutcome outcome;
        outcome.topicPartition = partition;
        outcome.target = RepositionTarget::offset(m_partitions.consumedPosition(partition));
        outcome.newPosition = outcome.target.value();
        outcomes.emplace(partition, std::move(outcome));
        partitions.append(partition);
    }
    commitStep(partitions, outcomes);
    QList<RepositionOutcome> result;
    for (auto& [partition, outcome] : outcomes)
        result.append(std::move(outcome));
    return result;
}

} // namespace groupscope::consumer
