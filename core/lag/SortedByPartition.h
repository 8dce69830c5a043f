#pragma once

#include "kafka/TopicPartition.h"

#include <QHash>
#include <QString>

#include <algorithm>

namespace groupscope::lag {

// A group's per-partition state kept as a vector of entries sorted by their `partition`
// (HealthEvaluator's commit windows, TimeLagEstimator's consumption windows): a hash entry
// or a map node per group partition cost two to three times the state itself at 100,000
// groups of ten partitions.

// Where an entry of `partition` is, or would go.
template <typename Entries>
auto lowerBoundByPartition(Entries& entries, const kafka::TopicPartition& partition) {
    return std::lower_bound(
        entries.begin(), entries.end(), partition,
        [](const auto& entry, const kafka::TopicPartition& tp) { return entry.partition < tp; });
}

// The entry of `partition`; null when there is none.
template <typename Entries>
auto* findByPartition(Entries& entries, const kafka::TopicPartition& partition) {
    const auto it = lowerBoundByPartition(entries, partition);
    return it != entries.end() && it->partition == partition ? &*it : nullptr;
}

// The entry of `partition`, inserted in its place with a default state when there is none.
// When full the vector grows by a quarter (at least one), not double: a group's partitions
// arrive one at a time at its first poll and rarely change after, so a doubled vector kept a
// third of its room unused on average, one vector per group.
template <typename Entries>
auto& entryFor(Entries& entries, const kafka::TopicPartition& partition) {
    auto it = lowerBoundByPartition(entries, partition);
    if (it == entries.end() || it->partition != partition) {
        const auto at = it - entries.begin();
        if (entries.size() == entries.capacity())
            entries.reserve(entries.size() + std::max<size_t>(1, entries.size() / 4));
        it = entries.insert(entries.begin() + at, typename Entries::value_type{partition, {}});
    }
    return *it;
}

// Removes the entry of `partition`, if any.
template <typename Entries>
void eraseByPartition(Entries& entries, const kafka::TopicPartition& partition) {
    const auto it = lowerBoundByPartition(entries, partition);
    if (it != entries.end() && it->partition == partition)
        entries.erase(it);
}

// Removes a group's entry of `partition`, and the group once it has none left.
template <typename Entries>
void eraseGroupPartition(QHash<QString, Entries>& groups, const QString& group,
                         const kafka::TopicPartition& partition) {
    const auto it = groups.find(group);
    if (it == groups.end())
        return;
    eraseByPartition(*it, partition);
    if (it->empty())
        groups.erase(it);
}

} // namespace groupscope::lag
