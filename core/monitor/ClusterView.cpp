#include "monitor/ClusterView.h"

#include <algorithm>

namespace groupscope::monitor {

const GroupSnapshot* ClusterView::group(const QString& groupId) const {
    const auto found = std::lower_bound(
        cluster.groups.cbegin(), cluster.groups.cend(), groupId,
        [](const GroupSnapshot& group, const QString& id) { return group.groupId() < id; });
    return found != cluster.groups.cend() && found->groupId() == groupId ? &*found : nullptr;
}

const GroupMonitorSnapshot* ClusterView::watchedGroup(const QString& groupId) const {
    for (const GroupMonitorSnapshot& snapshot : watched)
        if (snapshot.group == groupId)
            return &snapshot;
    return nullptr;
}

} // namespace groupscope::monitor
