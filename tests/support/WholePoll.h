#pragma once

#include "monitor/ClusterViewBuilder.h"

#include <QList>

namespace groupscope::test {

// Feeds `groups` to `builder` as one poll: group by group, as MonitorSession passes on what
// GroupInspector assembles, then the poll's end.
inline void observeWholePoll(monitor::ClusterViewBuilder& builder,
                             const QList<monitor::GroupSnapshot>& groups, bool wholeCluster) {
    for (const monitor::GroupSnapshot& group : groups)
        builder.observePolledGroup(group);
    builder.endPoll(wholeCluster);
}

} // namespace groupscope::test
