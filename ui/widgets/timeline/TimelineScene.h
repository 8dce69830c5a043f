#pragma once

#include "timeline/GroupTimeline.h"

#include <QList>
#include <QString>

#include <cstdint>

namespace groupscope::ui {

class MemberDirectory;

// What the rebalance timeline draws, in time (ms since the epoch) and lane units, built
// from a GroupTimeline in one pass per refresh. The plot layers only read it, so a refresh
// replaces data, never plot items.
class TimelineScene {
public:
    // A stretch of one lane: one owner from `startMs` to `endMs` (consecutive generations
    // with the same owner are merged), or nobody (`ownerId` empty).
    struct Bar {
        int64_t startMs = 0;
        int64_t endMs = 0;
        QString ownerId;
        // What stays the same when a static member restarts under a new member id: its
        // group.instance.id (the member id for dynamic members). Bars join on it.
        QString ownerIdentity;
        bool ownerChangedAtStart = false; // the partition moved here from another member
        // Consumer-protocol groups: the owner was told to revoke the partition from then
        // until the bar's end, and kept consuming it meanwhile.
        std::optional<int64_t> revokingFromMs;
    };
    struct Lane {
        kafka::TopicPartition partition;
        QString label; // "orders-3"
        QList<Bar> bars;
        bool firstOfTopic = false;
    };
    struct Boundary {
        int64_t atMs = 0;
        int generationIndex = 0;
        QString label; // "gen 12", "epoch 7", or "≈" for a generation inferred from polling
        bool approximate = false;
    };

    void rebuild(const timeline::GroupTimeline& timeline, int64_t nowMs);
    void clear();

    const timeline::GroupTimeline& timeline() const { return m_timeline; }
    int64_t nowMs() const { return m_nowMs; }
    const QList<Lane>& lanes() const { return m_lanes; }
    const QList<Boundary>& boundaries() const { return m_boundaries; }
    // True when the set of lanes differs from the previous rebuild (labels must change).
    bool lanesChanged() const { return m_lanesChanged; }
    bool isEmpty() const { return m_timeline.generations.isEmpty() && m_timeline.states.isEmpty(); }

    // Index of the generation in force at that time, or -1.
    int generationIndexAt(int64_t timeMs) const;
    // Index of the state span at that time, or -1.
    int stateIndexAt(int64_t timeMs) const;
    // The earliest time anything is known about, or nowMs when nothing is.
    int64_t firstKnownMs() const;

    static QString boundaryLabel(const timeline::Generation& generation,
                                 timeline::GroupProtocol protocol);

private:
    // Classic groups: one bar per generation and partition, merged while the owner stays.
    void addGenerationBars(QList<Lane>& lanes, int64_t nowMs);
    // Consumer-protocol groups: one bar per ownership span, and the gaps between them.
    void addOwnershipBars(QList<Lane>& lanes, int64_t nowMs);

    timeline::GroupTimeline m_timeline;
    int64_t m_nowMs = 0;
    QList<Lane> m_lanes;
    QList<Boundary> m_boundaries;
    bool m_lanesChanged = false;
};

} // namespace groupscope::ui
