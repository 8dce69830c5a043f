#pragma once
// The tables of `describe` for each group type, with the columns of Kafka 4.4's own tool
// for that type: kafka-consumer-groups for classic and consumer groups,
// kafka-share-groups for share groups, kafka-streams-groups for streams groups.

#include "snapshot/GroupSnapshot.h"

#include <QTextStream>

namespace groupscope::cli {

// Offsets (the default view): committed offset, log end and lag per partition; a share
// group's start offset and lag; a streams group's offset lag.
void printOffsets(QTextStream& out, const monitor::GroupSnapshot& group);
// --members [--verbose]: each member, its assignment, and (verbose) epochs and target.
void printMembers(QTextStream& out, const monitor::GroupSnapshot& group, bool verbose);
// --state [--verbose]: coordinator, assignor, state, members, and (verbose) the epochs.
void printState(QTextStream& out, const monitor::GroupSnapshot& group, bool verbose);

// What Kafka's tool of the group's type says of a group without members: "Consumer group
// 'g' has no active members.", "Share group ...", "Streams group ...".
QString noActiveMembersMessage(const monitor::GroupSnapshot& group);

// Kafka 4's way of writing an assignment: "orders:0,1,2;payments:0", "-" when empty.
QString assignmentText(const QList<kafka::TopicPartition>& partitions);
// kafka-streams-groups' tasks: "ACTIVE: 0:[0,1]; 1:[0,1]; STANDBY: 1:[1]; " (with `prefix`
// "TARGET-" for the target's).
QString streamsTasksText(const kafka::StreamsTasks& tasks, const QString& prefix = {});

} // namespace groupscope::cli
