#pragma once

#include "kafka/TopicPartition.h"

#include <QByteArray>
#include <QList>

namespace groupscope::kafka {

// The partitions in a classic group member's assignment bytes (DescribeGroups'
// MemberAssignment), sorted: an int16 version, then ConsumerProtocolAssignment. Any member
// of a group puts what it likes there, so anything that is not that format (another
// protocol type such as Kafka Connect, or corrupt bytes) gives no partitions. A version
// newer than known is read as the newest known: new versions only append fields.
QList<TopicPartition> classicMemberAssignment(const QByteArray& bytes);

} // namespace groupscope::kafka
