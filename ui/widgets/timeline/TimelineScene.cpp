#include "widgets/timeline/TimelineScene.h"

#include <QSet>

#include <algorithm>

namespace groupscope::ui {

namespace {

QList<kafka::TopicPartition> partitionsOf(const timeline::GroupTimeline& timeline) {
    QSet<kafka::TopicPartition> seen;
    for (const timeline::OwnershipSpan& span : timeline.ownership)
        seen.insert(span.partition);
    for (const timeline::Generation& generation : timeline.generations)
        for (auto it = generation.ownerByPartition.cbegin();
             it != generation.ownerByPartition.cend(); ++it)
            seen.insert(it.key());
    QList<kafka::TopicPartition> sorted(seen.cbegin(), seen.cend());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

} // namespace

QString TimelineScene::boundaryLabel(const timeline::Generation& generation,
                                     timeline::GroupProtocol protocol) {
    if (generation.generationId < 0)
        return QStringLiteral("≈");
    if (generation.approximate)
        return QStringLiteral("≈ gen %1").arg(generation.generationId);
    // Not the protocol type: classic groups of consumers have protocol type "consumer" too.
    if (timeline::followsGroupEpochs(protocol))
        return QStringLiteral("epoch %1").arg(generation.generationId);
    return QStringLiteral("gen %1").arg(generation.generationId);
}

void TimelineScene::rebuild(const timeline::GroupTimeline& timeline, int64_t nowMs) {
    m_timeline = timeline;
    m_nowMs = nowMs;

    const QList<kafka::TopicPartition> partitions = partitionsOf(timeline);
    m_lanesChanged = partitions.size() != m_lanes.size();
    for (qsizetype i = 0; !m_lanesChanged && i < partitions.size(); ++i)
        m_lanesChanged = partitions[i] != m_lanes[i].partition;

    QList<Lane> lanes;
    lanes.reserve(partitions.size());
    for (const kafka::TopicPartition& partition : partitions) {
        Lane lane;
        lane.partition = partition;
        lane.label = QStringLiteral("%1-%2").arg(partition.topic).arg(partition.partition);
        lane.firstOfTopic = lanes.isEmpty() || lanes.last().partition.topic != partition.topic;
        lanes.append(std::move(lane));
    }

    m_boundaries.clear();
    const QList<timeline::Generation>& generations = timeline.generations;
    for (qsizetype g = 0; g < generations.size(); ++g)
        m_boundaries.append({generations[g].startMs, int(g),
                             boundaryLabel(generations[g], timeline.protocol),
                             generations[g].approximate || generations[g].generationId < 0});
    if (timeline::followsGroupEpochs(timeline.protocol))
        addOwnershipBars(lanes, nowMs);
    else
        addGenerationBars(lanes, nowMs);
    m_lanes = std::move(lanes);
}

void TimelineScene::addGenerationBars(QList<Lane>& lanes, int64_t nowMs) {
    for (const timeline::Generation& generation : m_timeline.generations) {
        const int64_t endMs = std::max(generation.startMs, generation.endMs.value_or(nowMs));
        for (Lane& lane : lanes) {
            const QString owner = generation.ownerByPartition.value(lane.partition);
            const QString identity = generation.ownerIdentity(lane.partition);
            if (!lane.bars.isEmpty()) {
                Bar& last = lane.bars.last();
                if (last.endMs == generation.startMs && last.ownerIdentity == identity) {
                    last.endMs = endMs;
                    continue;
                }
            }
            const bool moved = !lane.bars.isEmpty() && !lane.bars.last().ownerId.isEmpty() &&
                               !owner.isEmpty() && lane.bars.last().ownerIdentity != identity;
            lane.bars.append({generation.startMs, endMs, owner, identity, moved, std::nullopt});
        }
    }
}

void TimelineScene::addOwnershipBars(QList<Lane>& lanes, int64_t nowMs) {
    // Spans are sorted by partition, then start, as the lanes are by partition.
    const QList<timeline::OwnershipSpan>& spans = m_timeline.ownership;
    qsizetype next = 0;
    const int64_t firstMs = firstKnownMs();
    for (Lane& lane : lanes) {
        QString previousOwner;
        int64_t coveredUntil = firstMs;
        for (; next < spans.size() && spans[next].partition == lane.partition; ++next) {
            const timeline::OwnershipSpan& span = spans[next];
            // Nobody owned it in between: released by one member, not yet assigned to the
            // next (the hand-over of the incremental protocol), or before its first owner.
            if (span.startMs > coveredUntil)
                lane.bars.append(
                    {coveredUntil, span.startMs, QString(), QString(), false, std::nullopt});
            const int64_t endMs = std::max(span.startMs, span.endMs.value_or(nowMs));
            const bool moved = !previousOwner.isEmpty() && previousOwner != span.ownerId;
            lane.bars.append(
                {span.startMs, endMs, span.ownerId, span.ownerId, moved, span.revocationStartMs});
            previousOwner = span.ownerId;
            coveredUntil = std::max(coveredUntil, endMs);
        }
        if (coveredUntil < nowMs && !lane.bars.isEmpty())
            lane.bars.append({coveredUntil, nowMs, QString(), QString(), false, std::nullopt});
    }
}

void TimelineScene::clear() {
    m_lanesChanged = !m_lanes.isEmpty();
    m_timeline = {};
    m_lanes.clear();
    m_boundaries.clear();
}

int TimelineScene::generationIndexAt(int64_t timeMs) const {
    const QList<timeline::Generation>& generations = m_timeline.generations;
    // Generations are oldest first and do not overlap: the last one started at or before.
    auto after = std::upper_bound(generations.cbegin(), generations.cend(), timeMs,
                                  [](int64_t time, const timeline::Generation& generation) {
                                      return time < generation.startMs;
                                  });
    if (after == generations.cbegin())
        return -1;
    const auto found = std::prev(after);
    if (timeMs >= found->endMs.value_or(m_nowMs) && found->endMs)
        return -1;
    return int(found - generations.cbegin());
}

int TimelineScene::stateIndexAt(int64_t timeMs) const {
    const QList<timeline::StateSpan>& states = m_timeline.states;
    auto after = std::upper_bound(
        states.cbegin(), states.cend(), timeMs,
        [](int64_t time, const timeline::StateSpan& span) { return time < span.startMs; });
    if (after == states.cbegin())
        return -1;
    const auto found = std::prev(after);
    if (found->endMs && timeMs >= *found->endMs)
        return -1;
    return int(found - states.cbegin());
}

int64_t TimelineScene::firstKnownMs() const {
    int64_t first = m_nowMs;
    if (!m_timeline.generations.isEmpty())
        first = std::min(first, m_timeline.generations.first().startMs);
    if (!m_timeline.states.isEmpty())
        first = std::min(first, m_timeline.states.first().startMs);
    return first;
}

} // namespace groupscope::ui
