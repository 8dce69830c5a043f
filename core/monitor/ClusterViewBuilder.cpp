#include "monitor/ClusterViewBuilder.h"

#include <algorithm>

namespace groupscope::monitor {

ClusterViewBuilder::ClusterViewBuilder(const lag::Clock& clock, GroupMonitor::Options options)
    : m_clock(clock)
    , m_monitor(clock, leanElsewhere(std::move(options))) {
    // Until a session says it reads the offsets topic, commits come from polls.
    m_monitor.setStreamState(GroupMonitor::StreamState::Unavailable,
                             QStringLiteral("the offsets topic is not read: polling only"));
    m_monitor.keepSparklines(m_listRows);
}

GroupMonitor::Options ClusterViewBuilder::leanElsewhere(GroupMonitor::Options options) {
    options.detailForEveryGroup = false;
    options.sparklineSamples = sparklineSamples;
    return options;
}

QStringList ClusterViewBuilder::setWatchedGroups(const QStringList& groups,
                                                 GroupMonitor::HistorySource source) {
    QStringList wanted = groups;
    wanted.sort();
    wanted.removeDuplicates();
    QStringList added;
    for (const QString& group : std::as_const(m_watched))
        if (!wanted.contains(group))
            m_monitor.unwatch(group);
    for (const QString& group : std::as_const(wanted))
        if (!m_watched.contains(group)) {
            m_monitor.watch(group, source);
            added.append(group);
        }
    m_watched = wanted;
    return added;
}

void ClusterViewBuilder::observePolledGroup(const GroupSnapshot& group) {
    // The poll's values are as of its first group: every request of its first slice was
    // answered by then, and the log ends that rates are measured on are read once per poll
    // (the slices after it read their groups' commits a few seconds later at most).
    if (!m_pollTakenAtMs)
        m_pollTakenAtMs = m_clock.nowMs();
    m_monitor.observePoll(group, *m_pollTakenAtMs);
    m_polledGroups.insert(group.groupId());
}

void ClusterViewBuilder::endPoll(bool wholeCluster) {
    const int64_t takenAtMs = m_pollTakenAtMs.value_or(m_clock.nowMs());
    if (wholeCluster)
        m_monitor.observeGroupsAbsentFrom(m_polledGroups);
    m_takenAt = QDateTime::fromMSecsSinceEpoch(takenAtMs, Qt::UTC);
    m_pollTakenAtMs.reset();
    m_polledGroups.clear();
}

void ClusterViewBuilder::abandonPoll() {
    m_pollTakenAtMs.reset();
    m_polledGroups.clear();
}

ClusterView ClusterViewBuilder::view() const {
    ClusterView view;
    view.cluster.takenAt = m_takenAt;
    const QStringList listed = m_monitor.listedGroups();
    // With list rows, every group is in the view as its list and Topics rows, and only the
    // watched ones in full: a full row kept for every group held the poll before last alive
    // until the GUI applied the next view (its partitions, members and trend: some 200 MB at
    // 100,000 groups of ten partitions, BenchGuiTenThousandGroups under heaptrack).
    TopicConsumerTable topics;
    if (m_listRows)
        view.groupList.reserve(listed.size());
    else
        view.cluster.groups.reserve(listed.size());
    for (const QString& id : listed) {
        GroupSnapshot row = *m_monitor.lastPoll(id);
        // The monitor's own copy of the id, the same string from poll to poll (a poll's is
        // new text from the network): the GUI's diff of 100,000 rows then compares ids by
        // pointer instead of reading each one's characters from all over the heap.
        row.description.groupId = id;
        const bool watched = std::binary_search(m_watched.cbegin(), m_watched.cend(), id);
        if (watched) {
            // The list's verdict of a watched group is the one its detail shows.
            view.watched.append(m_monitor.snapshot(id));
            row.trend = m_monitor.trend(id, &view.watched.last());
        } else {
            row.trend = m_monitor.trend(id);
        }
        if (m_listRows && row.exists()) {
            view.groupList.append(GroupSummary::of(row));
            topics.add(row);
        }
        if (watched || !m_listRows)
            view.cluster.groups.append(std::move(row));
    }
    // Watched but not polled yet (or gone): the detail still learns what is known.
    for (const QString& id : m_watched)
        if (!std::binary_search(listed.cbegin(), listed.cend(), id))
            view.watched.append(m_monitor.snapshot(id));
    std::sort(view.watched.begin(), view.watched.end(),
              [](const GroupMonitorSnapshot& a, const GroupMonitorSnapshot& b) {
                  return a.group < b.group;
              });
    if (m_listRows)
        view.topicConsumers = std::move(topics).rows();
    return view;
}

} // namespace groupscope::monitor
