#pragma once

#include "kafka/TopicPartition.h"
#include "lag/Clock.h"
#include "lag/OffsetRateWindow.h"
#include "lag/OffsetTimeTable.h"
#include "snapshot/TimeLag.h"

#include <QHash>
#include <QList>
#include <QPair>

#include <optional>

namespace groupscope::lag {

// Time lag, production and consumption rates, and time to drain. Fed with each poll's log
// end offsets and each commit seen; "now" comes from the injected clock.
class TimeLagEstimator {
public:
    struct Options {
        int lookupTableSize = 60; // kafka-lag-exporter's default
        int64_t rateWindowMs = 60'000;
        int rateSampleLimit = 128;
    };

    explicit TimeLagEstimator(const Clock& clock = SystemClock::instance());
    TimeLagEstimator(const Clock& clock, Options options);

    void recordLogEndOffset(const kafka::TopicPartition& partition, int64_t logEndOffset,
                            int64_t timeMs);
    void recordCommittedOffset(const QString& group, const kafka::TopicPartition& partition,
                               int64_t committedOffset, int64_t timeMs);

    TimeLag timeLag(const kafka::TopicPartition& partition, int64_t committedOffset) const;
    // The partition's log end at a past moment (OffsetTimeTable::offsetAt); none when no
    // sample is as new as the moment yet.
    std::optional<int64_t> logEndOffsetAt(const kafka::TopicPartition& partition,
                                          int64_t timeMs) const;
    // The worst partition's time lag; partitions whose time lag is unknown are skipped,
    // and the result is Unknown only when all are.
    TimeLag maxTimeLag(const QList<QPair<kafka::TopicPartition, int64_t>>& committedOffsets) const;

    // Messages per second over the rate window ending now.
    std::optional<double> productionRate(const kafka::TopicPartition& partition) const;
    std::optional<double> consumptionRate(const QString& group,
                                          const kafka::TopicPartition& partition) const;
    // lag / (consumption - production) when that is positive.
    DrainEstimate timeToDrain(const QString& group, const kafka::TopicPartition& partition,
                              int64_t lag) const;
    static DrainEstimate drainEstimate(int64_t lag, std::optional<double> consumptionRate,
                                       std::optional<double> productionRate);

    void removePartition(const kafka::TopicPartition& partition);
    void removeGroup(const QString& group);
    // The group's consumption rate on one partition (the partition's log-end table stays).
    void removeGroupPartition(const QString& group, const kafka::TopicPartition& partition) {
        m_consumption.remove(GroupPartition{group, partition});
    }
    qsizetype partitionCount() const { return m_partitions.size(); }
    qsizetype consumptionCount() const { return m_consumption.size(); }

private:
    struct PartitionState {
        OffsetTimeTable table;
        OffsetRateWindow production;
    };
    struct GroupPartition {
        QString group;
        kafka::TopicPartition partition;
        friend bool operator==(const GroupPartition&, const GroupPartition&) = default;
    };
    friend size_t qHash(const GroupPartition& key, size_t seed) {
        return qHashMulti(seed, key.group, key.partition);
    }

    const Clock& m_clock;
    Options m_options;
    QHash<kafka::TopicPartition, PartitionState> m_partitions;
    QHash<GroupPartition, OffsetRateWindow> m_consumption;
};

} // namespace groupscope::lag
