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
#include <vector>

namespace groupscope::lag {

// Time lag, production and consumption rates, and time to drain. Fed with each poll's log
// end offsets and each commit seen; "now" comes from the injected clock.
class TimeLagEstimator {
public:
    struct Options {
        int lookupTableSize = 60; // kafka-lag-exporter's default
        RateWindowOptions rateWindow;
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
    void removeGroupPartition(const QString& group, const kafka::TopicPartition& partition);
    qsizetype partitionCount() const { return m_partitions.size(); }
    // How many group partitions have a consumption rate window.
    qsizetype consumptionCount() const;

private:
    struct PartitionState {
        OffsetTimeTable table;
        OffsetRateWindow production;
    };
    struct ConsumptionEntry {
        kafka::TopicPartition partition;
        OffsetRateWindow window;
    };
    // A group's windows, sorted by partition. Per group, as HealthEvaluator keeps its commit
    // windows: one hash entry per group partition, keyed by the group's id and the
    // partition, took 120 MB at 100,000 groups of ten partitions (heaptrack of
    // BenchGuiTenThousandGroups), and removing a group walked every group's partitions.
    using GroupConsumption = std::vector<ConsumptionEntry>;

    const OffsetRateWindow* consumptionWindow(const QString& group,
                                              const kafka::TopicPartition& partition) const;

    const Clock& m_clock;
    Options m_options;
    QHash<kafka::TopicPartition, PartitionState> m_partitions;
    QHash<QString, GroupConsumption> m_consumption;
};

} // namespace groupscope::lag
