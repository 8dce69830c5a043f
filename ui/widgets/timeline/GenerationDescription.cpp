#include "widgets/timeline/GenerationDescription.h"

#include "lag/DurationText.h"

#include "widgets/timeline/MemberDirectory.h"
#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

namespace groupscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("RebalanceTimeline", text);
}

QString formatTime(int64_t ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString laneLabel(const kafka::TopicPartition& partition) {
    return QStringLiteral("%1-%2").arg(partition.topic).arg(partition.partition);
}

} // namespace

GenerationDescription::GenerationDescription(const TimelineScene& scene,
                                             const MemberDirectory& members,
                                             const TimelineTheme& theme)
    : m_scene(scene)
    , m_members(members)
    , m_theme(theme) {}

QString GenerationDescription::formatDuration(int64_t ms) {
    // The same words for time as the group list and the lag chart.
    return lag::durationText(double(ms) / 1000.0);
}

QString GenerationDescription::describe(int64_t timeMs, int lane) const {
    const int generationIndex = m_scene.generationIndexAt(timeMs);
    const QString state = describeState(timeMs);
    if (generationIndex < 0 && state.isEmpty())
        return {};
    QString html = QStringLiteral("<div style='white-space:nowrap'>");
    if (generationIndex >= 0)
        html += describeGeneration(generationIndex);
    else
        html += QStringLiteral("<b>%1</b><br>").arg(tr("Before the first known generation"));
    html += state;
    if (generationIndex >= 0) {
        html += describeLane(lane, generationIndex);
        html += describeMoves(generationIndex);
    }
    html += QStringLiteral("</div>");
    return html;
}

QString GenerationDescription::memberChip(const QString& memberId) const {
    const QColor colour = m_members.colour(memberId, m_theme.dark);
    return QStringLiteral("<span style='color:%1'>■</span> %2")
        .arg(colour.name(), m_members.displayName(memberId).toHtmlEscaped());
}

QString GenerationDescription::describeGeneration(int generationIndex) const {
    const timeline::Generation& generation = m_scene.timeline().generations[generationIndex];
    QString html;
    if (generation.generationId >= 0)
        html += QStringLiteral("<b>%1</b>").arg(tr("Generation %1").arg(generation.generationId));
    else
        html += QStringLiteral("<b>%1</b>").arg(tr("Generation ≈ (inferred from polling)"));
    if (generation.approximate && generation.generationId >= 0)
        html += QStringLiteral(" <i>%1</i>").arg(tr("(approximate)"));
    QStringList facts;
    if (!generation.protocol.isEmpty())
        facts << tr("assignor %1").arg(generation.protocol.toHtmlEscaped());
    else if (generation.members.isEmpty())
        facts << tr("no members");
    if (!generation.leader.isEmpty())
        facts << tr("leader %1").arg(m_members.displayName(generation.leader).toHtmlEscaped());
    if (!facts.isEmpty())
        html += QStringLiteral(" · ") + facts.join(QStringLiteral(" · "));
    html += QStringLiteral("<br>");

    const int64_t duration = generation.durationMs(m_scene.nowMs());
    if (generation.startedBeforeWindow)
        html += tr("Formed before the history window (at or before %1)")
                    .arg(formatTime(generation.startMs)) +
                QStringLiteral(", ");
    else
        html += tr("Started %1").arg(formatTime(generation.startMs)) + QStringLiteral(", ");
    html += generation.endMs ? tr("lasted %1").arg(formatDuration(duration))
                             : tr("current, %1 so far").arg(formatDuration(duration));
    html += QStringLiteral("<br>");

    html += QStringLiteral("<b>%1</b>").arg(tr("Members (%1)").arg(generation.members.size()));
    for (const timeline::GenerationMember& member : generation.members) {
        html += QStringLiteral("<br>&nbsp;&nbsp;") + memberChip(member.memberId);
        if (!member.host.isEmpty())
            html += QStringLiteral(" @ ") + member.host.toHtmlEscaped();
        if (!member.groupInstanceId.isEmpty())
            html += QStringLiteral(" [%1]").arg(member.groupInstanceId.toHtmlEscaped());
        if (member.memberId == generation.leader)
            html += QStringLiteral(" ★");
    }
    const auto nameList = [this](const QStringList& ids) {
        QStringList names;
        for (const QString& id : ids)
            names << memberChip(id);
        return names.join(QStringLiteral(", "));
    };
    if (!generation.joinedMemberIds.isEmpty())
        html += QStringLiteral("<br><b>%1</b> %2")
                    .arg(tr("Joined:"), nameList(generation.joinedMemberIds));
    if (!generation.leftMemberIds.isEmpty())
        html +=
            QStringLiteral("<br><b>%1</b> %2").arg(tr("Left:"), nameList(generation.leftMemberIds));
    for (const timeline::MemberReplacement& restart : generation.replacedMembers)
        html += QStringLiteral("<br><b>%1</b> %2 [%3] %4")
                    .arg(tr("Restarted:"), memberChip(restart.newMemberId),
                         restart.groupInstanceId.toHtmlEscaped(),
                         tr("at %1, kept its partitions").arg(formatTime(restart.atMs)));
    return html;
}

QString GenerationDescription::describeState(int64_t timeMs) const {
    const int index = m_scene.stateIndexAt(timeMs);
    if (index < 0)
        return {};
    const timeline::StateSpan& span = m_scene.timeline().states[index];
    const QString duration =
        span.endMs ? formatDuration(span.durationMs(m_scene.nowMs()))
                   : tr("%1 so far").arg(formatDuration(span.durationMs(m_scene.nowMs())));
    QString line = QStringLiteral("<br><b>%1</b> %2 (%3)")
                       .arg(tr("State:"), kafka::groupStateName(span.state), duration);
    if (span.approximate)
        line +=
            QStringLiteral(" <i>%1</i>").arg(tr("seen by polling: began since the poll before"));
    return line;
}

QString GenerationDescription::describeLane(int lane, int generationIndex) const {
    if (lane < 0 || lane >= m_scene.lanes().size())
        return {};
    const kafka::TopicPartition& partition = m_scene.lanes()[lane].partition;
    const QString owner =
        m_scene.timeline().generations[generationIndex].ownerByPartition.value(partition);
    QString html = QStringLiteral("<br><b>%1</b> ").arg(laneLabel(partition).toHtmlEscaped());
    if (owner.isEmpty())
        return html + tr("not assigned to any member");
    html += tr("owned by %1").arg(memberChip(owner));
    const QString withHost = m_members.displayNameWithHost(owner);
    if (withHost != m_members.displayName(owner))
        html += QStringLiteral(" @ ") + withHost.section(QStringLiteral(" @ "), -1).toHtmlEscaped();
    return html;
}

QString GenerationDescription::describeMoves(int generationIndex) const {
    if (generationIndex == 0)
        return {};
    const QList<timeline::Generation>& generations = m_scene.timeline().generations;
    const timeline::Generation& previous = generations[generationIndex - 1];
    const timeline::Generation& current = generations[generationIndex];
    const auto& before = previous.ownerByPartition;
    const auto& after = current.ownerByPartition;
    QSet<kafka::TopicPartition> partitions;
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        partitions.insert(it.key());
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        partitions.insert(it.key());
    QList<kafka::TopicPartition> sorted(partitions.cbegin(), partitions.cend());
    std::sort(sorted.begin(), sorted.end());

    QStringList moves;
    for (const kafka::TopicPartition& partition : sorted) {
        // A static member that restarted under a new member id still owns its partitions.
        if (!timeline::ownerChanged(previous, current, partition))
            continue;
        const QString from = before.value(partition);
        const QString to = after.value(partition);
        const QString nobody = QStringLiteral("—");
        moves << QStringLiteral("%1: %2 → %3")
                     .arg(laneLabel(partition).toHtmlEscaped(),
                          from.isEmpty() ? nobody : memberChip(from),
                          to.isEmpty() ? nobody : memberChip(to));
    }
    if (moves.isEmpty())
        return QStringLiteral("<br><b>%1</b>").arg(tr("No partition changed owner"));
    QString html =
        QStringLiteral("<br><b>%1</b>")
            .arg(moves.size() == 1 ? tr("1 partition changed owner:")
                                   : tr("%1 partitions changed owner:").arg(moves.size()));
    for (qsizetype i = 0; i < moves.size() && i < kMaxMovedListed; ++i)
        html += QStringLiteral("<br>&nbsp;&nbsp;") + moves[i];
    if (moves.size() > kMaxMovedListed)
        html += QStringLiteral("<br>&nbsp;&nbsp;") +
                tr("and %1 more").arg(moves.size() - kMaxMovedListed);
    return html;
}

} // namespace groupscope::ui
