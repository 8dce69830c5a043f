#include "monitor/ClusterView.h"

#include <QThreadPool>

#include <algorithm>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace groupscope::monitor {

const GroupSnapshot* ClusterView::group(const QString& groupId) const {
    return cluster.group(groupId);
}

const GroupSummary* ClusterView::listedGroup(const QString& groupId) const {
    const auto found = std::lower_bound(
        groupList.cbegin(), groupList.cend(), groupId,
        [](const GroupSummary& row, const QString& id) { return row.groupId < id; });
    return found != groupList.cend() && found->groupId == groupId ? &*found : nullptr;
}

const GroupMonitorSnapshot* ClusterView::watchedGroup(const QString& groupId) const {
    for (const GroupMonitorSnapshot& snapshot : watched)
        if (snapshot.group == groupId)
            return &snapshot;
    return nullptr;
}

void returnFreedPages() {
#if defined(__GLIBC__)
    // glibc returns only the top of a heap by itself; malloc_trim also releases the free
    // pages inside it (madvise), arena by arena: some milliseconds at 10,000 groups.
    malloc_trim(0);
#endif
}

void releaseInBackground(ClusterView replaced) {
    QThreadPool::globalInstance()->start(
        [replaced = std::move(replaced)]() mutable { replaced = {}; });
}

} // namespace groupscope::monitor
