#pragma once
// What the live pipeline knows about a cluster at one refresh, as one value for every view:
// the group list reads `cluster` (each group's poll with its trend), the group detail and
// the CLI's watch/timeline read the full snapshot of the groups they watch. Both parts come
// from the same GroupMonitor in the same refresh, so a watched group's health in the list
// and in its detail is one verdict.

#include "monitor/GroupMonitorSnapshot.h"
#include "snapshot/GroupSnapshot.h"

#include <QList>
#include <QMetaType>

namespace groupscope::monitor {

struct ClusterView {
    // Every listed group (sorted by id), with its trend; a group missing from the latest
    // listing stays until the monitor evicts it (see GroupMonitor::listedGroups()).
    ClusterSnapshot cluster;
    // The watched groups' full snapshots, sorted by group id.
    QList<GroupMonitorSnapshot> watched;

    const GroupSnapshot* group(const QString& groupId) const;
    const GroupMonitorSnapshot* watchedGroup(const QString& groupId) const;
};

} // namespace groupscope::monitor

Q_DECLARE_METATYPE(groupscope::monitor::ClusterView)
