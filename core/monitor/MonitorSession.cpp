#include "monitor/MonitorSession.h"

#include "monitor/GroupInspector.h"

#include <QSet>

#include <algorithm>

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
    , m_builder(*m_options.clock, m_options.monitor) {
    m_builder.setWatchedGroups(m_options.groups, GroupMonitor::HistorySource::Stream);
    m_builder.setListRows(m_options.listRows);
    if (!m_options.readOffsetsTopic) {
        monitor().setStreamState(GroupMonitor::StreamState::Unavailable,
                                 QStringLiteral("reading the offsets topic is switched off"));
        return;
    }
    monitor().setStreamState(GroupMonitor::StreamState::Pending);
    m_stream = openStream(m_options.groups);
}

MonitorSession::~MonitorSession() {
    for (auto& [group, replay] : m_replays)
        replay->stop();
    if (m_stream)
        m_stream->stop();
}

std::unique_ptr<OffsetsTopicStream> MonitorSession::openStream(const QStringList& groups) const {
    OffsetsTopicStream::Options streamOptions;
    streamOptions.profile = m_options.profile;
    streamOptions.topic = m_options.offsetsTopic;
    streamOptions.history = m_options.history;
    streamOptions.groups = QSet<QString>(groups.cbegin(), groups.cend());
    streamOptions.requestTimeout = m_options.requestTimeout;
    streamOptions.clock = m_options.clock;
    auto stream = std::make_unique<OffsetsTopicStream>(std::move(streamOptions));
    stream->start();
    return stream;
}

void MonitorSession::setWatchedGroups(const QStringList& groups) {
    // Before the stream has handed out anything, its own replay still brings every record
    // of a newly watched group; afterwards only a replay of its own can.
    const bool replayNeeded = m_stream && m_streamDelivered;
    const QStringList added =
        m_builder.setWatchedGroups(groups, replayNeeded ? GroupMonitor::HistorySource::Replay
                                                        : GroupMonitor::HistorySource::Stream);
    for (auto it = m_replays.begin(); it != m_replays.end();) {
        if (m_builder.watchedGroups().contains(it->first)) {
            ++it;
            continue;
        }
        it->second->stop();
        it = m_replays.erase(it);
    }
    if (replayNeeded)
        for (const QString& group : added)
            m_replays[group] = openStream({group});
}

void MonitorSession::drainStream() {
    drainReplays();
    if (!m_stream)
        return;
    // The state is read before the records: when it says "caught up", every replayed
    // record is already queued and goes into the monitor before the state changes.
    const OffsetsTopicStream::Status status = m_stream->status();
    for (const OffsetsTopicStream::Record& record : m_stream->take()) {
        monitor().observeRecord(record.record);
        m_streamDelivered = true;
    }
    monitor().setStreamState(streamStateOf(status), status.reason);
}

void MonitorSession::drainReplays() {
    for (auto& [group, replay] : m_replays) {
        const OffsetsTopicStream::Status status = replay->status();
        for (const OffsetsTopicStream::Record& record : replay->take())
            monitor().observeReplayedRecord(record.record);
        if (status.state == OffsetsTopicStream::State::Reading && status.caughtUp)
            monitor().setReplayComplete(group);
    }
}

kafka::Status MonitorSession::poll() {
    kafka::AdminClient::renewIfCoordinatorMoved(m_admin);
    GroupInspector inspector(*m_admin, &m_extraConnections);
    inspector.setLagDetailReader(&m_lagDetail);
    const auto observe = [this](GroupSnapshot&& group) { m_builder.observePolledGroup(group); };
    const bool wholeCluster = m_options.groups.isEmpty();
    const kafka::Status polled =
        wholeCluster ? inspector.inspectAll(observe) : inspector.inspect(m_options.groups, observe);
    if (polled)
        m_builder.endPoll(wholeCluster);
    else
        m_builder.abandonPoll();
    return polled;
}

void MonitorSession::resolveTopicIds() {
    const QStringList unresolved = monitor().unresolvedTopicIds();
    // Ids no topic has (a topic deleted since) are not looked up again on every refresh.
    if (unresolved.isEmpty() || unresolved == m_topicIdsLookedUp)
        return;
    auto names = m_admin->topicNamesById();
    if (!names)
        return; // the ids stay shown as ids; the next refresh asks again
    monitor().addTopicNames(names.value());
    m_topicIdsLookedUp = unresolved;
}

kafka::Status MonitorSession::refresh() {
    drainStream();
    resolveTopicIds();
    if (const kafka::Status polled = poll(); !polled)
        return polled;
    rebuildLagHistory();
    return kafka::Done{};
}

void MonitorSession::rebuildLagHistory() {
    if (!m_options.rebuildLagHistory)
        return;
    const int64_t windowStartMs = m_options.clock->nowMs() - m_options.history.count();
    // Only watched groups keep detail, so only they are ever awaiting a rebuild.
    for (const QString& group : monitor().groupsAwaitingLagBackfill()) {
        const GroupMonitor::LagBackfillRequest request =
            monitor().lagBackfillRequest(group, windowStartMs);
        const PastLogEnds past = lookUpPastLogEnds(request);
        monitor().completeLagBackfill(group, past.timesMs, past.logEnds);
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
        const GroupMonitor::StreamState state = monitor().streamState();
        if (state == GroupMonitor::StreamState::Live ||
            state == GroupMonitor::StreamState::Unavailable)
            return true;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        m_stream->waitForRecords(drainWait);
    }
}

ClusterView MonitorSession::view() const {
    ClusterView view = m_builder.view();
    if (const auto status = streamStatus()) {
        view.offsetsTopicSkips.unknownVersions = status->unknownVersions;
        view.offsetsTopicSkips.decodeErrors = status->decodeErrors;
        view.offsetsTopicSkips.lastDecodeError = status->lastDecodeError;
    }
    return view;
}

std::optional<OffsetsTopicStream::Status> MonitorSession::streamStatus() const {
    if (!m_stream)
        return std::nullopt;
    return m_stream->status();
}

} // namespace groupscope::monitor
