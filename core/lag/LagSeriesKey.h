#pragma once

#include "kafka/TopicPartition.h"

#include <QHash>
#include <QString>

namespace groupscope::lag {

// Names one lag series: a group's lag on one partition, summed over a topic, or summed over
// the whole group.
struct LagSeriesKey {
    enum class Level { Partition, Topic, Group };

    Level level = Level::Group;
    QString group;
    QString topic;          // empty for Level::Group
    int32_t partition = -1; // -1 unless Level::Partition

    static LagSeriesKey forPartition(const QString& group, const kafka::TopicPartition& tp) {
        return {Level::Partition, group, tp.topic, tp.partition};
    }
    static LagSeriesKey forTopic(const QString& group, const QString& topic) {
        return {Level::Topic, group, topic, -1};
    }
    static LagSeriesKey forGroup(const QString& group) { return {Level::Group, group, {}, -1}; }

    friend bool operator==(const LagSeriesKey&, const LagSeriesKey&) = default;
};

inline size_t qHash(const LagSeriesKey& key, size_t seed = 0) {
    return qHashMulti(seed, int(key.level), key.group, key.topic, key.partition);
}

} // namespace groupscope::lag
