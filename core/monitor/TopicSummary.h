#pragma once

#include "snapshot/GroupSnapshot.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>

#include <optional>

namespace groupscope::monitor {

// One group reading one topic: a row of "which groups read this topic, and how far
// behind is each?" (the Topics view, groupscope-cli describe --topic). Made from the same
// poll as the group list, on the pipeline's thread, so both show the same lag.
struct TopicConsumer {
    // topic, U+0001, group id: orders the rows as (topic, group) pairs do, since topic
    // names have no character below it, and gives a table one key to find a row by.
    QString key;
    size_t fingerprint = 0; // of every field below (see GroupSummary), beside the key as there
    QString topic;
    int topicPartitions = 0; // partitions of the topic any listed group commits on or owns
    int64_t logSize = 0;     // records in those partitions: log end - log start, summed
    QString groupId;
    kafka::GroupType type = kafka::GroupType::Unknown;
    kafka::GroupState state = kafka::GroupState::Unknown;
    int partitions = 0;         // of the topic the group commits on or owns
    std::optional<int64_t> lag; // over the partitions with a commit; none without any
    int withoutCommit = 0;      // partitions not counted in `lag`
    lag::TimeLag timeLag;       // the worst of its partitions of the topic
    QString timeLagText;        // formatted once, as in the group list

    size_t computeFingerprint() const;
};

// The (topic, group) rows of groups added one by one: the pipeline adds each group as it
// makes the view, without keeping every group's rows for a list of them first.
class TopicConsumerTable {
public:
    // Groups that do not exist (GroupSnapshot::exists()) add nothing.
    void add(const GroupSnapshot& group);
    // Every (topic, group) pair added, sorted by topic, then group id.
    QList<TopicConsumer> rows() &&;

private:
    struct TopicLog {
        QSet<int32_t> partitions;
        int64_t logSize = 0;
    };
    // Topic -> group -> its row, and each topic's partitions and log size, counted once
    // per partition however many groups read it.
    QMap<QString, QMap<QString, TopicConsumer>> m_byTopic;
    QHash<QString, TopicLog> m_logs;
};

// Every (topic, group) pair of the groups that exist, sorted by topic, then group id.
QList<TopicConsumer> topicConsumersOf(const QList<GroupSnapshot>& groups);

} // namespace groupscope::monitor
