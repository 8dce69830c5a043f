#pragma once
// Header-only helpers for the engine tests: a producer that can write to librdkafka's mock
// cluster or to the real test broker, an observer that holds the reposition engine at a
// step, and a collector that checks delivered offsets per partition.

#include "consumer/ConsumerSession.h"
#include "consumer/RepositionObserver.h"
#include "kafka/RdKafkaHandles.h"

#include <librdkafka/rdkafka_mock.h>

#include <QList>
#include <QMap>
#include <QString>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace groupscope::test {

using consumer::RepositionStep;
using kafka::TopicPartition;

// A producer handle. With `mockBrokers` > 0 it also hosts a librdkafka mock cluster
// (test.mock.num.brokers), which lives exactly as long as this object.
class TestProducer {
public:
    static std::unique_ptr<TestProducer> createMock(int brokers) {
        return create({{"test.mock.num.brokers", QByteArray::number(brokers)}});
    }
    static std::unique_ptr<TestProducer> createFor(const QString& bootstrap) {
        return create({{"bootstrap.servers", bootstrap.toUtf8()}});
    }

    rd_kafka_mock_cluster_t* mockCluster() const {
        return rd_kafka_handle_mock_cluster(m_handle.get());
    }
    QString bootstrapServers() const {
        return QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(mockCluster()));
    }
    bool createMockTopic(const QString& topic, int partitions) {
        return rd_kafka_mock_topic_create(mockCluster(), topic.toUtf8().constData(), partitions,
                                          1) == RD_KAFKA_RESP_ERR_NO_ERROR;
    }

    // Produces `count` messages to one partition; the payload names partition and index.
    // timestampMs(i) gives each message's timestamp (0: the producer's clock).
    template <typename TimestampOf>
    bool produce(const QString& topic, int32_t partition, int count, TimestampOf timestampMs,
                 int payloadSize = 0) {
        const QByteArray topicName = topic.toUtf8();
        for (int i = 0; i < count; ++i) {
            QByteArray payload = QByteArray::number(partition) + ':' + QByteArray::number(i);
            if (payloadSize > payload.size())
                payload.append(QByteArray(payloadSize - payload.size(), 'x'));
            rd_kafka_resp_err_t code;
            while ((code = rd_kafka_producev(
                        m_handle.get(), RD_KAFKA_V_TOPIC(topicName.constData()),
                        RD_KAFKA_V_PARTITION(partition), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                        RD_KAFKA_V_VALUE(payload.data(), size_t(payload.size())),
                        RD_KAFKA_V_TIMESTAMP(int64_t(timestampMs(i))), RD_KAFKA_V_END)) ==
                   RD_KAFKA_RESP_ERR__QUEUE_FULL)
                rd_kafka_poll(m_handle.get(), 10); // waits for delivery reports, not a sleep
            if (code)
                return false;
        }
        return flush();
    }
    bool produce(const QString& topic, int32_t partition, int count) {
        return produce(topic, partition, count, [](int) { return 0; });
    }
    bool flush() { return rd_kafka_flush(m_handle.get(), 30000) == RD_KAFKA_RESP_ERR_NO_ERROR; }
    rd_kafka_t* handle() const { return m_handle.get(); }

private:
    static std::unique_ptr<TestProducer> create(const QList<QPair<QByteArray, QByteArray>>& props) {
        kafka::ConfHandle conf(rd_kafka_conf_new());
        char reason[512];
        for (const auto& [key, value] : props)
            rd_kafka_conf_set(conf.get(), key.constData(), value.constData(), reason,
                              sizeof reason);
        rd_kafka_conf_set(conf.get(), "linger.ms", "5", reason, sizeof reason);
        rd_kafka_conf_set(conf.get(), "log_level", "2", reason, sizeof reason);
        rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), reason, sizeof reason);
        if (!raw)
            return nullptr;
        (void)conf.release();
        auto producer = std::unique_ptr<TestProducer>(new TestProducer);
        producer->m_handle.reset(raw);
        return producer;
    }
    kafka::KafkaHandle m_handle;
};

// Holds the engine after a chosen step (the first time that step is reached for a set of
// partitions containing `whenPartition`), records every step, and injects one-shot faults.
class HoldingObserver : public consumer::RepositionObserver {
public:
    void holdAt(RepositionStep step, const TopicPartition& whenPartition) {
        std::lock_guard lock(m_mutex);
        m_holdStep = step;
        m_holdPartition = whenPartition;
        m_held = false;
        m_released = false;
    }
    bool waitUntilHeld(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, timeout, [this] { return m_held; });
    }
    void release() {
        std::lock_guard lock(m_mutex);
        m_released = true;
        m_holdStep.reset();
        m_changed.notify_all();
    }
    void injectOnce(RepositionStep step, const TopicPartition& partition, kafka::KafkaError error) {
        std::lock_guard lock(m_mutex);
        m_faults[{int(step), partition}] = std::move(error);
    }
    QList<RepositionStep> steps() const {
        std::lock_guard lock(m_mutex);
        return m_steps;
    }

    void stepDone(RepositionStep step, const QList<TopicPartition>& partitions) override {
        std::unique_lock lock(m_mutex);
        m_steps.append(step);
        if (m_holdStep && *m_holdStep == step && partitions.contains(m_holdPartition)) {
            m_held = true;
            m_changed.notify_all();
            m_changed.wait(lock, [this] { return m_released; });
        }
    }
    kafka::KafkaError injectedFault(RepositionStep step, const TopicPartition& partition) override {
        std::lock_guard lock(m_mutex);
        const auto it = m_faults.find({int(step), partition});
        if (it == m_faults.end())
            return {};
        kafka::KafkaError error = it->second;
        m_faults.erase(it);
        return error;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::optional<RepositionStep> m_holdStep;
    TopicPartition m_holdPartition;
    bool m_held = false;
    bool m_released = false;
    QList<RepositionStep> m_steps;
    std::map<std::pair<int, TopicPartition>, kafka::KafkaError> m_faults;
};

// The group's committed offset of a partition as a separate client sees it (-1: none).
inline int64_t committedOffset(const QString& bootstrap, const QString& group,
                               const TopicPartition& partition) {
    kafka::ConfHandle conf(rd_kafka_conf_new());
    char reason[512];
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", bootstrap.toUtf8().constData(), reason,
                      sizeof reason);
    rd_kafka_conf_set(conf.get(), "group.id", group.toUtf8().constData(), reason, sizeof reason);
    rd_kafka_conf_set(conf.get(), "log_level", "2", reason, sizeof reason);
    kafka::KafkaHandle consumer(rd_kafka_new(RD_KAFKA_CONSUMER, conf.get(), reason, sizeof reason));
    if (!consumer)
        return -2;
    (void)conf.release();
    kafka::TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), partition.topic.toUtf8().constData(),
                                      partition.partition);
    if (rd_kafka_committed(consumer.get(), list.get(), 10000) || list->elems[0].err)
        return -3;
    rd_kafka_consumer_close(consumer.get());
    return list->elems[0].offset < 0 ? -1 : list->elems[0].offset;
}

// Offsets delivered per partition, in delivery order.
class DeliveryLog {
public:
    void add(const std::vector<consumer::ConsumedMessage>& messages) {
        for (const auto& message : messages)
            m_offsets[{message.topic(), message.partition()}].push_back(message.offset());
    }
    const std::vector<int64_t>& offsets(const TopicPartition& partition) {
        return m_offsets[partition];
    }
    size_t count(const TopicPartition& partition) { return m_offsets[partition].size(); }
    void clear() { m_offsets.clear(); }

private:
    std::map<TopicPartition, std::vector<int64_t>> m_offsets;
};

// Takes from the session into `log` until `done` holds or the deadline passes.
template <typename Done>
bool drainUntil(consumer::ConsumerSession& session, DeliveryLog& log, Done done,
                std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        session.waitForMessages(std::chrono::milliseconds(100));
        log.add(session.takeAll(1000));
    }
    return true;
}

// True when `offsets` is exactly first, first+1, ..., last.
inline bool isContiguousRange(const std::vector<int64_t>& offsets, int64_t first, int64_t last) {
    if (int64_t(offsets.size()) != last - first + 1)
        return false;
    for (size_t i = 0; i < offsets.size(); ++i)
        if (offsets[i] != first + int64_t(i))
            return false;
    return true;
}

// True when `offsets` starts at `first`, reaches `last`, and never skips ahead: each offset
// is at most one past the one before (going back, to a committed position, is allowed).
inline bool startsAtAndHasNoGap(const std::vector<int64_t>& offsets, int64_t first, int64_t last) {
    if (offsets.empty() || offsets.front() != first)
        return false;
    int64_t highest = offsets.front();
    for (size_t i = 1; i < offsets.size(); ++i) {
        if (offsets[i] > offsets[i - 1] + 1)
            return false;
        highest = std::max(highest, offsets[i]);
    }
    return highest == last;
}

inline QString describe(const std::vector<int64_t>& offsets) {
    QString text;
    const size_t shown = std::min<size_t>(offsets.size(), 12);
    for (size_t i = 0; i < shown; ++i)
        text += QString::number(offsets[i]) + QLatin1Char(' ');
    if (offsets.size() > shown)
        text += QStringLiteral("... %1 (n=%2)").arg(offsets.back()).arg(offsets.size());
    return text;
}

inline QString describe(consumer::ConsumerSession& session) {
    QString text;
    for (const auto& p : session.partitionStatistics())
        text += QStringLiteral("[%1 buffered=%2 consumed=%3 fetch=%4 paused=%5 locked=%6] ")
                    .arg(p.topicPartition.toString())
                    .arg(p.messagesBuffered)
                    .arg(p.consumedPosition)
                    .arg(p.fetchPosition)
                    .arg(p.paused)
                    .arg(p.locked);
    const auto statistics = session.statistics();
    text += QStringLiteral("received=%1 delivered=%2 stale=%3 lastError=%4")
                .arg(statistics.messagesReceived)
                .arg(statistics.messagesDelivered)
                .arg(statistics.staleMessagesDiscarded)
                .arg(statistics.lastError.toString());
    return text;
}

inline const consumer::RepositionOutcome*
findOutcome(const QList<consumer::RepositionOutcome>& outcomes, const TopicPartition& partition) {
    for (const auto& outcome : outcomes)
        if (outcome.topicPartition == partition)
            return &outcome;
    return nullptr;
}

} // namespace groupscope::test
