#include "kafka/GroupTypes.h"

namespace groupscope::kafka {

QString groupStateName(GroupState state) {
    switch (state) {
    case GroupState::PreparingRebalance:
        return QStringLiteral("PreparingRebalance");
    case GroupState::CompletingRebalance:
        return QStringLiteral("CompletingRebalance");
    case GroupState::Stable:
        return QStringLiteral("Stable");
    case GroupState::Dead:
        return QStringLiteral("Dead");
    case GroupState::Empty:
        return QStringLiteral("Empty");
    case GroupState::Assigning:
        return QStringLiteral("Assigning");
    case GroupState::Reconciling:
        return QStringLiteral("Reconciling");
    case GroupState::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

GroupState groupStateFromName(const QString& name) {
    for (GroupState state :
         {GroupState::PreparingRebalance, GroupState::CompletingRebalance, GroupState::Stable,
          GroupState::Dead, GroupState::Empty, GroupState::Assigning, GroupState::Reconciling})
        if (name.compare(groupStateName(state), Qt::CaseInsensitive) == 0)
            return state;
    return GroupState::Unknown;
}

} // namespace groupscope::kafka
