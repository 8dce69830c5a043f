#pragma once

#include <QString>

#include <cstdint>

namespace groupscope::ui {

class MemberDirectory;
class TimelineScene;
struct TimelineTheme;

// The tooltip of the rebalance timeline, as rich text: the generation in force at a time
// (id, start, duration, assignor, leader), its members, who joined and who left, which
// partitions moved owners compared with the generation before, the group's state at that
// moment, and the owner of the lane under the pointer.
class GenerationDescription {
public:
    GenerationDescription(const TimelineScene& scene, const MemberDirectory& members,
                          const TimelineTheme& theme);

    // Empty when nothing is known about that time. `lane` < 0: no lane under the pointer.
    QString describe(int64_t timeMs, int lane) const;

    static QString formatDuration(int64_t ms);

    // Partitions listed as moved before the rest is summarised as "and N more".
    static constexpr int kMaxMovedListed = 12;

private:
    QString describeGeneration(int generationIndex) const;
    QString describeState(int64_t timeMs) const;
    QString describeLane(int lane, int generationIndex) const;
    QString describeMoves(int generationIndex) const;
    QString memberChip(const QString& memberId) const;

    const TimelineScene& m_scene;
    const MemberDirectory& m_members;
    const TimelineTheme& m_theme;
};

} // namespace groupscope::ui
