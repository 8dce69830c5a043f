#pragma once
// What the live pipeline knows about a cluster at one refresh, as one value for every view:
// the GUI's group list and alerts read `groupList` (a summary per group), the group detail
// and the CLI's watch/timeline the full snapshot of the groups they watch, the exporter and
// the CLI every group's poll with its trend (`cluster`). All come from the same
// GroupMonitor in the same refresh, so a watched group's health in the list and in its
// detail is one verdict.

#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/GroupSummary.h"
#include "monitor/TopicSummary.h"
#include "snapshot/GroupSnapshot.h"

#include <QList>
#include <QMetaType>

namespace groupscope::monitor {

// What reading __consumer_offsets had to skip so far: records of a version this build
// does not know, and malformed ones. Shown, never an error: the rest is still read.
struct OffsetsTopicSkips {
    int64_t unknownVersions = 0;
    int64_t decodeErrors = 0;
    QString lastDecodeError;
    int64_t total() const { return unknownVersions + decodeErrors; }
};

struct ClusterView {
    // Every listed group (sorted by id), with its trend; a group missing from the latest
    // listing stays until the monitor evicts it (see GroupMonitor::listedGroups()). With
    // list rows (the GUI's, ClusterViewBuilder::setListRows), only the watched groups: the
    // others are their rows in `groupList`.
    ClusterSnapshot cluster;
    // What the group list shows of the listed groups that exist, sorted by id: made on the
    // pipeline's thread, so the GUI thread only compares fingerprints. Empty unless the
    // builder was asked for them (ClusterViewBuilder::setListRows).
    QList<GroupSummary> groupList;
    // The same groups by topic (the Topics view), also made on the pipeline's thread.
    QList<TopicConsumer> topicConsumers;
    // The watched groups' full snapshots, sorted by group id.
    QList<GroupMonitorSnapshot> watched;
    OffsetsTopicSkips offsetsTopicSkips;

    // The group's full snapshot; null when it is not listed or, with list rows, not watched.
    const GroupSnapshot* group(const QString& groupId) const;
    // The group's list row (by binary search); null when it is not listed or has no rows.
    const GroupSummary* listedGroup(const QString& groupId) const;
    const GroupMonitorSnapshot* watchedGroup(const QString& groupId) const;
};

// Frees a view that was replaced, on a pool thread and not the caller's: a view of 10,000
// groups holds some 100,000 allocations. The pages that leaves empty go back to the system
// at the pipeline's next returnFreedPages(), not here: trimming holds every allocator arena
// in turn, the GUI thread's too. (The GUI calls this once its refresh is painted:
// ReleaseAfterRepaint.)
void releaseInBackground(ClusterView replaced);
// Hands the pages that freeing left empty back to the system: they lie between live
// allocations of the next polls, so the allocator keeps them resident otherwise (about 10 MB
// of 275 at 10,000 groups, measured by BenchGuiTenThousandGroups). On the calling thread
// (not the GUI's): the exporter's renderer calls it after each render, and the pipeline's
// worker after each poll, before it hands the view over. It holds each of the allocator's
// arenas in turn, the GUI thread's too, for milliseconds at 100,000 groups: a thread that
// allocates meanwhile waits, so it never runs while the GUI applies a view.
void returnFreedPages();

} // namespace groupscope::monitor

Q_DECLARE_METATYPE(groupscope::monitor::ClusterView)
