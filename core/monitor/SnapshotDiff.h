#pragma once

#include "snapshot/GroupSnapshot.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace groupscope::monitor {

// One thing that changed between two consecutive polls of the cluster.
struct ChangeEvent {
    enum class Kind {
        GroupAppeared,
        GroupDisappeared,
        StateChanged, // before/after: state names
        MemberJoined, // member: its id; detail: client id and host
        MemberLeft,
        AssignmentChanged, // partition moved to another member (or to none)
        CommitMoved,       // committed offset changed; before/after: offsets
        CommitAppeared,
        CommitDeleted,
    };
    Kind kind;
    QString groupId;
    QString member;
    kafka::TopicPartition topicPartition;
    QString before;
    QString after;

    QString describe() const; // one line for people, e.g. for a log view or `watch`
};

// The events that turn `previous` into `current`, group by group, in a stable order
// (groups by id; within a group: state, members, assignments, commits). Pure: the same
// two snapshots always give the same events.
QList<ChangeEvent> diffSnapshots(const ClusterSnapshot& previous, const ClusterSnapshot& current);
QList<ChangeEvent> diffGroups(const GroupSnapshot* previous, const GroupSnapshot* current);

} // namespace groupscope::monitor

Q_DECLARE_METATYPE(groupscope::monitor::ChangeEvent)
