#include "lag/TimeLagEstimator.h"

#include "lag/SortedByPartition.h"

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
        it = m_partitions.insert(partition,
                                 {OffsetTimeTable(m_options.lookupTableSize), OffsetRateWindow()});
    it->table.addPoint(logEndOffset, timeMs);
    it->production.add(logEndOffset, timeMs, m_options.rateWindow);
}

void TimeLagEstimator::recordCommittedOffset(const QString& group,
                                             const kafka::TopicPartition& partition,
                                             int64_t committedOffset, int64_t timeMs) {
    entryFor(m_consumption[group], partition)
        .window.add(committedOffset, timeMs, m_options.rateWindow);
}

const OffsetRateWindow*
TimeLagEstimator::consumptionWindow(const QString& group,
                                    const kafka::TopicPartition& partition) const {
    const auto windows = m_consumption.constFind(group);
    if (windows == m_consumption.cend())
        return nullptr;
    const ConsumptionEntry* entry = findByPartition(*windows, partition);
    return entry ? &entry->window : nullptr;
}

qsizetype TimeLagEstimator::consumptionCount() const {
    qsizetype count = 0;
    for (const GroupConsumption& windows : m_consumption)
        count += qsizetype(windows.size());
    return count;
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
    return it->production.ratePerSecond(m_clock.nowMs(), m_options.rateWindow);
}

std::optional<double>
TimeLagEstimator::consumptionRate(const QString& group,
                                  const kafka::TopicPartition& partition) const {
    const OffsetRateWindow* window = consumptionWindow(group, partition);
    if (!window)
        return std::nullopt;
    return window->ratePerSecond(m_clock.nowMs(), m_options.rateWindow);
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
    m_consumption.removeIf([&partition](QHash<QString, GroupConsumption>::iterator windows) {
        eraseByPartition(windows.value(), partition);
        return windows.value().empty();
    });
}

void TimeLagEstimator::removeGroup(const QString& group) {
    m_consumption.remove(group);
}

void TimeLagEstimator::removeGroupPartition(const QString& group,
                                            const kafka::TopicPartition& partition) {
    eraseGroupPartition(m_consumption, group, partition);
}

} // namespace groupscope::lag
