#pragma once

#include "timeline/GroupTimeline.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QString>

namespace groupscope::ui {

// Every member a group's timeline has shown, with a colour that stays the member's for the
// life of the view (refreshes and forgotten generations do not reshuffle colours) and the
// name people know it by: its client id, plus a member id suffix where two members share
// one (a scaled-out deployment often gives every instance the same client id).
class MemberDirectory {
public:
    struct Entry {
        timeline::GenerationMember member;
        int colourIndex = 0; // order of first appearance
    };

    // Records the members of every generation; new members get the next colour.
    void observe(const timeline::GroupTimeline& timeline);
    void clear();

    bool contains(const QString& memberId) const { return m_indexById.contains(memberId); }
    // The member's colour for a light or a dark background; grey for unknown members.
    QColor colour(const QString& memberId, bool darkBackground) const;
    QString displayName(const QString& memberId) const;
    // "client @ host", the longer form tooltips use.
    QString displayNameWithHost(const QString& memberId) const;
    // Members in order of first appearance.
    const QList<Entry>& entries() const { return m_entries; }

    static QColor paletteColour(int index, bool darkBackground);

private:
    QList<Entry> m_entries;
    QHash<QString, int> m_indexById;
    QHash<QString, int> m_membersPerClientId;
    QHash<QString, int> m_indexByInstanceId; // static members: group.instance.id -> entry
};

} // namespace groupscope::ui
