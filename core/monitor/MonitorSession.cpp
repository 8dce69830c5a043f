#include "monitor/MonitorSession.h"

#include "monitor/GroupInspector.h"

#include <QSet>

#include <algorithm>

#include <thread>

namespace groupscope::monitor {

namespace {

constexpr std::chrono::milliseconds drainWait{100};

GroupMonitor::StreamState streamStateOf(const OffsetsTopicStream::Status& status) {
    switch (status.state) {
    case OffsetsTopicStream::State::Starting:
        return GroupMonitor::StreamState::Pending;
    case OffsetsTopicStream::State::Reading:
        return status.caughtUp ? GroupMonitor::StreamState::Live
                               : GroupMonitor::StreamState::Replaying;
    case OffsetsTopicStream::State::Unreadable:
    case OffsetsTopicStream::State::Stopped:
        break;
    }
    return GroupMonitor::StreamState::Unavailable;
}

} // namespace

kafka::Result<std::unique_ptr<MonitorSession>> MonitorSession::create(Options options) {
    auto admin = kafka::AdminClient::create(options.profile, options.requestTimeout);
    options.monitor.lagBackfillWindowMs = options.history.count();
    if (!admin)
        return admin.error();
    std::unique_ptr<MonitorSession> session(
        new MonitorSession(std::move(options), std::move(admin).value()));
    return session;
}

MonitorSession::MonitorSession(Options options, std::unique_ptr<kafka::AdminClient> admin)
    : m_options(std::move(options))
    , m_admin(std::move(admin))
    , m_monitor(*m_options.clock, m_options.monitor) {
    if (!m_options.readOffsetsTopic) {
        m_monitor.setStreamState(GroupMonitor::StreamState::Unavailable,
                                 QStringLiteral("reading the offsets topic is switched off"));
        return;
    }
    OffsetsTopicStream::Options streamOptions;
    streamOptions.profile = m_options.profile;
    streamOptions.topic = m_options.offsetsTopic;
    streamOptions.history = m_options.history;
    streamOptions.groups = QSet<QString>(m_options.groups.cbegin(), m_options.groups.cend());
    streamOptions.requestTimeout = m_options.requestTimeout;
    streamOptions.clock = m_options.clock;
    m_stream = std::make_unique<OffsetsTopicStream>(std::move(streamOptions));
    m_stream->start();
}

MonitorSession::~MonitorSession() {
    if (m_stream)
        m_stream->stop();
}

void MonitorSession::drainStream() {
    if (!m_stream)
        return;
    // The state is read before the records: when it says "caught up", every replayed
    // record is already queued and goes into the monitor before the state changes.
    const OffsetsTopicStream::Status status = m_stream->status();
    for (const OffsetsTopicStream::Record& record : m_stream->take())
        m_monitor.observeRecord(record.record);
    m_monitor.setStreamState(streamStateOf(status), status.reason);
}

kafka::Status MonitorSession::refresh() {
    drainStream();
    kafka::AdminClient::renewIfCoordinatorMoved(m_admin);
    GroupInspector inspector(*m_admin, &m_extraConnections);
    kafka::Result<QList<GroupSnapshot>> snapshots = QList<GroupSnapshot>();
    if (m_options.groups.isEmpty()) {
        auto cluster = inspector.inspectAll();
        if (!cluster)
            return cluster.error();
        snapshots = std::move(cluster).value().groups;
    } else {
        snapshots = inspector.inspect(m_options.groups);
    }
    if (!snapshots)
        return snapshots.error();
    const int64_t takenAtMs = m_options.clock->nowMs();
    for (const GroupSnapshot& snapshot : snapshots.value())
        m_monitor.observePoll(snapshot, takenAtMs);
    rebuildLagHistory();
    return kafka::Done{};
}

void MonitorSession::rebuildLagHistory() {
    if (!m_options.rebuildLagHistory || m_options.groups.isEmpty())
        return;
    const int64_t windowStartMs = m_options.clock->nowMs() - m_options.history.count();
    for (const QString& group : m_monitor.groupsAwaitingLagBackfill()) {
        const GroupMonitor::LagBackfillRequest request =
            m_monitor.lagBackfillRequest(group, windowStartMs);
        const PastLogEnds past = lookUpPastLogEnds(request);
        m_monitor.completeLagBackfill(group, past.timesMs, past.logEnds);
    }
}

MonitorSession::PastLogEnds
MonitorSession::lookUpPastLogEnds(const GroupMonitor::LagBackfillRequest& request) {
    PastLogEnds past;
    if (request.partitions.isEmpty())
        return past;
    const auto deadline = std::chrono::steady_clock::now() + m_options.lagHistoryBudget;
    // Newest moment first, so a budget that runs out costs the oldest part of the history.
    // One round per moment: a ListOffsets request cannot name a partition twice.
    for (auto time = request.timesMs.crbegin(); time != request.timesMs.crend(); ++time) {
        if (!past.timesMs.isEmpty() && std::chrono::steady_clock::now() >= deadline)
            break;
        QList<QPair<kafka::TopicPartition, int64_t>> query;
        for (const kafka::TopicPartition& partition : request.partitions)
            query.append({partition, *time});
        const auto answer = m_admin->offsetsForTimestamps(query);
        if (!answer)
            return {}; // the chart starts with live samples; polling is unaffected
        past.timesMs.append(*time);
        for (auto it = answer.value().cbegin(); it != answer.value().cend(); ++it)
            past.logEnds[it.key()].append(it.value());
    }
    std::reverse(past.timesMs.begin(), past.timesMs.end());
    for (QList<int64_t>& column : past.logEnds)
        std::reverse(column.begin(), column.end());
    return past;
}

bool MonitorSession::waitForHistory(std::chrono::steady_clock::time_point deadline) {
    if (!m_stream)
        return true;
    for (;;) {
        drainStream();
        const GroupMonitor::StreamState state = m_monitor.streamState();
        if (state == GroupMonitor::StreamState::Live ||
            state == GroupMonitor::StreamState::Unavailable)
            return true;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        m_stream->waitForRecords(drainWait);
    }
}

std::optional<OffsetsTopicStream::Status> MonitorSession::streamStatus() const {
    if (!m_stream)
        return std::nullopt;
    return m_stream->status();
}

} // namespace groupscope::monitor
