#include "widgets/timeline/MemberDirectory.h"

#include <array>
#include <cmath>

namespace groupscope::ui {

namespace {

// Tableau 10 without its grey (grey means "nobody owns this"), then the lighter Tableau 20
// companions: qualitative colours that stay apart for the common case of up to ~18 members.
constexpr std::array<QRgb, 18> kQualitative = {
    0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0xb07aa1, 0x76b7b2, 0xedc948, 0xff9da7, 0x9c755f,
    0xa0cbe8, 0xffbe7d, 0x8cd17d, 0xff9d9a, 0xd4a6c8, 0x86bcb6, 0xf1ce63, 0xfabfd2, 0xd7b5a6};

QString memberIdSuffix(const QString& memberId) {
    // Kafka member ids end in a UUID; its last characters tell members apart.
    constexpr int kSuffixLength = 4;
    return memberId.size() <= kSuffixLength ? memberId : memberId.right(kSuffixLength);
}

} // namespace

QColor MemberDirectory::paletteColour(int index, bool darkBackground) {
    QColor colour;
    if (index >= 0 && index < int(kQualitative.size())) {
        colour = QColor::fromRgb(kQualitative[size_t(index)]);
    } else {
        // Past the table: golden-angle hues keep successive members far apart.
        const double hue = std::fmod(0.11 + 0.618033988749895 * index, 1.0);
        colour = QColor::fromHsvF(float(hue), 0.55f, 0.85f);
    }
    // On a dark background the same hues read better a little lighter and less saturated.
    return darkBackground ? colour.lighter(112) : colour;
}

void MemberDirectory::observe(const timeline::GroupTimeline& timeline) {
    for (const timeline::Generation& generation : timeline.generations) {
        for (const timeline::GenerationMember& member : generation.members) {
            const auto known = m_indexById.constFind(member.memberId);
            if (known != m_indexById.constEnd()) {
                // Polling may learn a host or client id later; keep the fuller record.
                timeline::GenerationMember& stored = m_entries[*known].member;
                if (stored.clientId.isEmpty() && !member.clientId.isEmpty()) {
                    stored.clientId = member.clientId;
                    ++m_membersPerClientId[member.clientId];
                }
                if (stored.host.isEmpty())
                    stored.host = member.host;
                continue;
            }
            // A static member that restarted under a new member id is the same consumer:
            // same colour, same name, not one more member of its client id.
            if (!member.groupInstanceId.isEmpty()) {
                const auto same = m_indexByInstanceId.constFind(member.groupInstanceId);
                if (same != m_indexByInstanceId.constEnd()) {
                    m_indexById.insert(member.memberId, *same);
                    continue;
                }
            }
            const int index = int(m_entries.size());
            m_entries.append({member, index});
            m_indexById.insert(member.memberId, index);
            if (!member.groupInstanceId.isEmpty())
                m_indexByInstanceId.insert(member.groupInstanceId, index);
            if (!member.clientId.isEmpty())
                ++m_membersPerClientId[member.clientId];
        }
        // An owner that is not listed as a member still needs a colour.
        for (const QString& owner : generation.ownerByPartition) {
            if (owner.isEmpty() || m_indexById.contains(owner))
                continue;
            const int index = int(m_entries.size());
            m_entries.append({{owner, {}, {}, {}}, index});
            m_indexById.insert(owner, index);
        }
    }
}

void MemberDirectory::clear() {
    m_entries.clear();
    m_indexById.clear();
    m_membersPerClientId.clear();
    m_indexByInstanceId.clear();
}

QColor MemberDirectory::colour(const QString& memberId, bool darkBackground) const {
    const auto index = m_indexById.constFind(memberId);
    if (index == m_indexById.constEnd())
        return darkBackground ? QColor(0x8a8a8a) : QColor(0xa0a0a0);
    return paletteColour(m_entries[*index].colourIndex, darkBackground);
}

QString MemberDirectory::displayName(const QString& memberId) const {
    const auto index = m_indexById.constFind(memberId);
    if (index == m_indexById.constEnd())
        return memberId;
    const QString& clientId = m_entries[*index].member.clientId;
    if (clientId.isEmpty())
        return memberId;
    if (m_membersPerClientId.value(clientId) > 1)
        return QStringLiteral("%1 …%2").arg(clientId, memberIdSuffix(memberId));
    return clientId;
}

QString MemberDirectory::displayNameWithHost(const QString& memberId) const {
    const auto index = m_indexById.constFind(memberId);
    const QString name = displayName(memberId);
    if (index == m_indexById.constEnd() || m_entries[*index].member.host.isEmpty())
        return name;
    return QStringLiteral("%1 @ %2").arg(name, m_entries[*index].member.host);
}

} // namespace groupscope::ui
