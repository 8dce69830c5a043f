#include "lag/TimeLagEstimator.h"

#include <algorithm>

namespace groupscope::lag {

TimeLagEstimator::TimeLagEstimator(const Clock& clock)
    : TimeLagEstimator(clock, Options()) {}

TimeLagEstimator::TimeLagEstimator(const Clock& clock, Options options)
    : m_clock(clock)
    , m_options(options) {}

void TimeLagEstimator::recordLogEndOffset(const kafka::TopicPartition& partition,
                                          int64_t logEndOffset, int64_t timeMs) {
    auto it = m_partitions.find(partition);
    if (it == m_partitions.end())
        it = m_partitions.insert(
            partition, {OffsetTimeTable(m_options.lookupTableSize),
                        OffsetRateWindow(m_options.rateWindowMs, m_options.rateSampleLimit)});
    it->table.addPoint(logEndOffset, timeMs);
    it->production.add(logEndOffset, timeMs);
}

void TimeLagEstimator::recordCommittedOffset(const QString& group,
                                             const kafka::TopicPartition& partition,
                                             int64_t committedOffset, int64_t timeMs) {
    const GroupPartition key{group, partition};
    auto it = m_consumption.find(key);
    if (it == m_consumption.end())
        it = m_consumption.insert(
            key, OffsetRateWindow(m_options.rateWindowMs, m_options.rateSampleLimit));
    it->add(committedOffset, timeMs);
}

TimeLag TimeLagEstimator::timeLag(const kafka::TopicPartition& partition,
                                  int64_t committedOffset) const {
    TimeLag result;
    const auto it = m_partitions.constFind(partition);
    if (it == m_partitions.cend() || committedOffset < 0)
        return result; // Unknown
    const OffsetTimeTable::Lookup lookup = it->table.lookup(committedOffset);
    const double nowMs = double(m_clock.nowMs());
    switch (lookup.kind) {
    case OffsetTimeTable::Lookup::Kind::AtLogEnd:
        result.status = TimeLag::Status::CaughtUp;
        break;
    case OffsetTimeTable::Lookup::Kind::TooFewPoints:
        break;
    case OffsetTimeTable::Lookup::Kind::NoProduction:
        result.status = TimeLag::Status::AtLeast;
        result.seconds = std::max(0.0, (nowMs - lookup.timeMs) / 1000.0);
        break;
    case OffsetTimeTable::Lookup::Kind::Predicted:
        result.status = TimeLag::Status::Estimated;
        result.extrapolated = lookup.extrapolated;
        // Extrapolating forward can land after now; a consumer is never ahead of time.
        result.seconds = std::max(0.0, (nowMs - lookup.timeMs) / 1000.0);
        break;
    }
    return result;
}

std::optional<int64_t> TimeLagEstimator::logEndOffsetAt(const kafka::TopicPartition& partition,
                                                        int64_t timeMs) const {
    const auto it = m_partitions.constFind(partition);
    if (it == m_partitions.cend())
        return std::nullopt;
    return it->table.offsetAt(timeMs);
}

TimeLag TimeLagEstimator::maxTimeLag(
    const QList<QPair<kafka::TopicPartition, int64_t>>& committedOffsets) const {
    TimeLag worst;
    for (const auto& [partition, committedOffset] : committedOffsets) {
        const TimeLag lag = timeLag(partition, committedOffset);
        if (lag.status == TimeLag::Status::Unknown)
            continue;
        if (worst.status == TimeLag::Status::Unknown || lag.seconds > worst.seconds)
            worst = lag;
    }
    return worst;
}

std::optional<double>
TimeLagEstimator::productionRate(const kafka::TopicPartition& partition) const {
    const auto it = m_partitions.constFind(partition);
    if (it == m_partitions.cend())
        return std::nullopt;
    return it->production.ratePerSecond(m_clock.nowMs());
}

std::optional<double>
TimeLagEstimator::consumptionRate(const QString& group,
                                  const kafka::TopicPartition& partition) const {
    const auto it = m_consumption.constFind(GroupPartition{group, partition});
    if (it == m_consumption.cend())
        return std::nullopt;
    return it->ratePerSecond(m_clock.nowMs());
}

DrainEstimate TimeLagEstimator::timeToDrain(const QString& group,
                                            const kafka::TopicPartition& partition,
                                            int64_t lag) const {
    return drainEstimate(lag, consumptionRate(group, partition), productionRate(partition));
}

DrainEstimate TimeLagEstimator::drainEstimate(int64_t lag, std::optional<double> consumptionRate,
                                              std::optional<double> productionRate) {
    DrainEstimate estimate;
    if (lag <= 0) {
        estimate.status = DrainEstimate::Status::Drained;
        return estimate;
    }
    if (!consumptionRate || !productionRate)
        return estimate; // Unknown
    const double netRate = *consumptionRate - *productionRate;
    if (netRate <= 0) {
        estimate.status = DrainEstimate::Status::NotDraining;
        return estimate;
    }
    estimate.status = DrainEstimate::Status::Draining;
    estimate.seconds = double(lag) / netRate;
    return estimate;
}

void TimeLagEstimator::removePartition(const kafka::TopicPartition& partition) {
    m_partitions.remove(partition);
    m_consumption.removeIf(
        [&partition](const auto& entry) { return entry.key().partition == partition; });
}

void TimeLagEstimator::removeGroup(const QString& group) {
    m_consumption.removeIf([&group](const auto& entry) { return entry.key().group == group; });
}

} // namespace groupscope::lag
