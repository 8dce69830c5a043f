#pragma once

#include "kafka/AdminClient.h"
#include "kafka/AdminClientPool.h"
#include "monitor/GroupMonitor.h"
#include "monitor/OffsetsTopicStream.h"

#include <QStringList>

#include <atomic>
#include <chrono>
#include <memory>

namespace groupscope::monitor {

// One live monitor of some groups on one cluster: polls them through the Admin API, reads
// the offsets topic through an OffsetsTopicStream, and feeds both into a GroupMonitor.
//
// Threads: every call runs on the caller's thread (the CLI's main thread, or the GUI's
// monitor worker) and blocks while it polls; the only other threads are the stream's worker
// and its consumer's fetch thread, which never touch the GroupMonitor: their records wait in
// the stream's bounded queue until refresh() or waitForHistory() drains them here.
class MonitorSession {
public:
    struct Options {
        kafka::ConnectionProfile profile;
        // The groups polled; the stream keeps only their records. Empty: every group.
        QStringList groups;
        std::chrono::milliseconds requestTimeout{5000};
        bool readOffsetsTopic = true;
        // Another name only for tests that need an unreadable topic.
        QString offsetsTopic = QString::fromLatin1(OffsetsTopicStream::internalTopic);
        std::chrono::milliseconds history{3'600'000};
        // Rebuild each named group's lag over the history window once it is replayed
        // (GroupMonitor's lag backfill): one ListOffsets-by-timestamp round per point, so
        // only for named groups, never when watching every group.
        bool rebuildLagHistory = true;
        // How long the rebuild may hold up a refresh; on a slow cluster the oldest part of
        // the history is left out instead.
        std::chrono::milliseconds lagHistoryBudget{2000};
        const lag::Clock* clock = &lag::SystemClock::instance();
        GroupMonitor::Options monitor;
    };

    static kafka::Result<std::unique_ptr<MonitorSession>> create(Options options);
    ~MonitorSession();

    // Moves the stream's records into the monitor, then polls the groups once; the first
    // refresh after the history is replayed also rebuilds the groups' past lag (a few
    // seconds on a slow cluster, once).
    kafka::Status refresh();
    // Moves whatever the stream has read into the monitor and updates its stream state.
    void drainStream();
    // Drains until the history window is replayed or the topic proved unreadable; false
    // when the deadline came first.
    bool waitForHistory(std::chrono::steady_clock::time_point deadline);

    GroupMonitor& monitor() { return m_monitor; }
    const GroupMonitor& monitor() const { return m_monitor; }
    // Empty optional when the offsets topic is not read at all.
    std::optional<OffsetsTopicStream::Status> streamStatus() const;
    // Abandons a poll in progress when set (e.g. by a signal handler's flag).
    void setCancelFlag(const std::atomic<bool>* cancelled) {
        m_cancelled = cancelled;
        m_admin->setCancelFlag(cancelled);
    }

private:
    MonitorSession(Options options, std::unique_ptr<kafka::AdminClient> admin);
    // Log ends at past moments as ListOffsets-by-timestamp answers them: the moments
    // looked up (a suffix of the request's, within the budget) and each partition's column.
    struct PastLogEnds {
        QList<int64_t> timesMs;
        QHash<kafka::TopicPartition, QList<int64_t>> logEnds; // empty: a lookup failed
    };
    void rebuildLagHistory();
    PastLogEnds lookUpPastLogEnds(const GroupMonitor::LagBackfillRequest& request);

    Options m_options;
    std::unique_ptr<kafka::AdminClient> m_admin;
    // Kept between refreshes, so a cluster with many groups is connected to once.
    kafka::AdminClientPool m_extraConnections;
    const std::atomic<bool>* m_cancelled = nullptr;
    GroupMonitor m_monitor;
    std::unique_ptr<OffsetsTopicStream> m_stream;
};

} // namespace groupscope::monitor
