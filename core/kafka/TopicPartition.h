#pragma once

#include <QHash>
#include <QString>

#include <compare>
#include <cstdint>

namespace groupscope::kafka {

struct TopicPartition {
    QString topic;
    int32_t partition = -1;

    friend bool operator==(const TopicPartition&, const TopicPartition&) = default;
    friend std::strong_ordering operator<=>(const TopicPartition& a, const TopicPartition& b) {
        if (const int byTopic = QString::compare(a.topic, b.topic); byTopic != 0)
            return byTopic < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
        return a.partition <=> b.partition;
    }
    QString toString() const { return QStringLiteral("%1:%2").arg(topic).arg(partition); }
};

inline size_t qHash(const TopicPartition& tp, size_t seed = 0) {
    return qHashMulti(seed, tp.topic, tp.partition);
}

} // namespace groupscope::kafka
