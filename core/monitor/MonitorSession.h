#pragma once

#include "kafka/AdminClient.h"
#include "kafka/AdminClientPool.h"
#include "monitor/ClusterView.h"
#include "monitor/ClusterViewBuilder.h"
#include "monitor/LagDetailReader.h"
#include "monitor/OffsetsTopicStream.h"

#include <QStringList>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>

namespace groupscope::monitor {

// The live pipeline of one cluster, synchronous: polls the groups through the Admin API
// (GroupInspector over one AdminClient and its pool), reads the offsets topic through an
// OffsetsTopicStream, and feeds both into one ClusterViewBuilder, whose ClusterView every
// front end reads. The CLI's watch and timeline drive it on their thread; the GUI drives it
// on ClusterMonitor's worker thread.
//
// A group watched from the start takes its detail from the session's stream. A group that
// becomes watched later has its history window replayed by a stream of its own, which
// feeds only that group's detail (commits, timeline, lag rebuild) for as long as it is
// watched; it is never polled a second time.
//
// Threads: every call runs on the caller's thread and blocks while it polls; the only other
// threads are the streams' workers and their consumers' fetch threads, which never touch the
// monitor: their records wait in each stream's bounded queue until refresh() or
// waitForHistory() drains them here.
class MonitorSession {
public:
    struct Options {
        kafka::ConnectionProfile profile;
        // The groups polled (and watched from the start); the stream keeps only their
        // records. Empty: every group, none watched until setWatchedGroups().
        QStringList groups;
        std::chrono::milliseconds requestTimeout{5000};
        bool readOffsetsTopic = true;
        // Another name only for tests that need an unreadable topic.
        QString offsetsTopic = QString::fromLatin1(OffsetsTopicStream::internalTopic);
        std::chrono::milliseconds history{3'600'000};
        // Rebuild each watched group's lag over the history window once it is replayed
        // (GroupMonitor's lag backfill): one ListOffsets-by-timestamp round per point, so
        // only for watched groups, never for every group.
        bool rebuildLagHistory = true;
        // How long the rebuild may hold up a refresh; on a slow cluster the oldest part of
        // the history is left out instead.
        std::chrono::milliseconds lagHistoryBudget{2000};
        const lag::Clock* clock = &lag::SystemClock::instance();
        GroupMonitor::Options monitor; // the watched groups' detail
        // The GUI's list rows in each view (ClusterViewBuilder::setListRows).
        bool listRows = false;
    };

    static kafka::Result<std::unique_ptr<MonitorSession>> create(Options options);
    ~MonitorSession();

    // Moves the streams' records into the monitor, then polls once; the first refresh after
    // a watched group's history is replayed also rebuilds its past lag (a few seconds on a
    // slow cluster, once).
    kafka::Status refresh();
    // Moves whatever the streams have read into the monitor and updates its stream state.
    void drainStream();
    // Drains until the history window is replayed or the topic proved unreadable; false
    // when the deadline came first.
    bool waitForHistory(std::chrono::steady_clock::time_point deadline);

    // The groups whose full detail the view carries (besides Options::groups).
    void setWatchedGroups(const QStringList& groups);
    // The latest view, with what the offsets-topic stream skipped so far.
    ClusterView view() const;

    GroupMonitor& monitor() { return m_builder.monitor(); }
    const GroupMonitor& monitor() const { return m_builder.monitor(); }
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
    std::unique_ptr<OffsetsTopicStream> openStream(const QStringList& groups) const;
    void drainReplays();
    // Polls the groups into the builder, each as soon as it is inspected.
    kafka::Status poll();
    void rebuildLagHistory();
    // Looks up topic names for the topic ids consumer-protocol groups' records use, when the
    // monitor has ids it cannot name (one metadata read and one DescribeTopics, not per poll).
    void resolveTopicIds();
    PastLogEnds lookUpPastLogEnds(const GroupMonitor::LagBackfillRequest& request);

    Options m_options;
    std::unique_ptr<kafka::AdminClient> m_admin;
    // Kept between refreshes, so a cluster with many groups is connected to once.
    kafka::AdminClientPool m_extraConnections;
    LagDetailReader m_lagDetail; // across polls: its kept reads spare requests
    const std::atomic<bool>* m_cancelled = nullptr;
    ClusterViewBuilder m_builder;
    std::unique_ptr<OffsetsTopicStream> m_stream;
    bool m_streamDelivered = false; // the stream has handed out records already
    QStringList m_topicIdsLookedUp; // unresolved ids at the last lookup: not asked again
    // The history replays of groups watched after the stream had begun.
    std::map<QString, std::unique_ptr<OffsetsTopicStream>> m_replays;
};

} // namespace groupscope::monitor
