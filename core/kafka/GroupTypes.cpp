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
    case GroupState::NotReady:
        return QStringLiteral("NotReady");
    case GroupState::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

GroupState groupStateFromName(const QString& name) {
    for (GroupState state : {GroupState::PreparingRebalance, GroupState::CompletingRebalance,
                             GroupState::Stable, GroupState::Dead, GroupState::Empty,
                             GroupState::Assigning, GroupState::Reconciling, GroupState::NotReady})
        if (name.compare(groupStateName(state), Qt::CaseInsensitive) == 0)
            return state;
    return GroupState::Unknown;
}

bool isRebalancing(GroupState state) {
    return state == GroupState::PreparingRebalance || state == GroupState::CompletingRebalance ||
           state == GroupState::Assigning || state == GroupState::Reconciling;
}

bool isInactive(GroupState state) {
    return state == GroupState::Empty || state == GroupState::Dead;
}

QString groupTypeName(GroupType type) {
    switch (type) {
    case GroupType::Classic:
        return QStringLiteral("Classic");
    case GroupType::Consumer:
        return QStringLiteral("Consumer");
    case GroupType::Share:
        return QStringLiteral("Share");
    case GroupType::Streams:
        return QStringLiteral("Streams");
    case GroupType::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

std::optional<GroupType> groupTypeFromName(const QString& name) {
    for (GroupType type :
         {GroupType::Classic, GroupType::Consumer, GroupType::Share, GroupType::Streams})
        if (name.compare(groupTypeName(type), Qt::CaseInsensitive) == 0)
            return type;
    return std::nullopt;
}

} // namespace groupscope::kafka
