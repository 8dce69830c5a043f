#include "sandbox/SandboxStatus.h"

#include <QJsonArray>

namespace groupscope::sandbox {

uint64_t SandboxStatus::producedTo(const QString& topic) const {
    for (const TopicProgress& progress : topics)
        if (progress.topic == topic)
            return progress.produced;
    return 0;
}

int SandboxStatus::membersOf(const QString& group) const {
    for (const GroupMembers& entry : groups)
        if (entry.group == group)
            return entry.members;
    return 0;
}

QString SandboxStatus::toLine() const {
    QStringList produced;
    for (const TopicProgress& progress : topics)
        produced.append(QStringLiteral("%1 %2").arg(progress.topic).arg(progress.produced));
    QStringList members;
    for (const GroupMembers& entry : groups)
        members.append(QStringLiteral("%1 %2").arg(entry.group).arg(entry.members));
    // Continuity is said per group only where it is not perfect; zero gaps is the norm.
    QStringList gapsByGroup;
    QStringList duplicatesByGroup;
    for (const GroupMembers& entry : groups) {
        if (entry.gaps > 0)
            gapsByGroup.append(QStringLiteral("%1 %2 (%3 records skipped)")
                                   .arg(entry.group)
                                   .arg(entry.gaps)
                                   .arg(entry.skipped));
        if (entry.duplicates > 0)
            duplicatesByGroup.append(
                QStringLiteral("%1 %2").arg(entry.group).arg(entry.duplicates));
    }
    QString line =
        QStringLiteral("sandbox: %1 s; produced %2; members %3; gaps %4; duplicates %5")
            .arg(uptimeSeconds)
            .arg(produced.join(QStringLiteral(", ")), members.join(QStringLiteral(", ")),
                 gapsByGroup.isEmpty() ? QStringLiteral("0")
                                       : gapsByGroup.join(QStringLiteral(", ")),
                 duplicatesByGroup.isEmpty() ? QStringLiteral("0")
                                             : duplicatesByGroup.join(QStringLiteral(", ")));
    if (!archive.isEmpty())
        line += QStringLiteral(" (archive: %1)").arg(archive);
    if (!problems.isEmpty())
        line += QStringLiteral("; problem: ") + problems.join(QStringLiteral("; "));
    return line;
}

QJsonObject SandboxStatus::toJson() const {
    QJsonArray topicArray;
    for (const TopicProgress& progress : topics)
        topicArray.append(QJsonObject{{QStringLiteral("topic"), progress.topic},
                                      {QStringLiteral("produced"), qint64(progress.produced)}});
    QJsonArray groupArray;
    for (const GroupMembers& entry : groups)
        groupArray.append(QJsonObject{{QStringLiteral("group"), entry.group},
                                      {QStringLiteral("members"), entry.members},
                                      {QStringLiteral("processed"), qint64(entry.processed)},
                                      {QStringLiteral("gaps"), qint64(entry.gaps)},
                                      {QStringLiteral("recordsSkipped"), qint64(entry.skipped)},
                                      {QStringLiteral("duplicates"), qint64(entry.duplicates)}});
    return {{QStringLiteral("uptimeSeconds"), qint64(uptimeSeconds)},
            {QStringLiteral("topics"), topicArray},
            {QStringLiteral("groups"), groupArray},
            {QStringLiteral("archive"), archive},
            {QStringLiteral("problems"), QJsonArray::fromStringList(problems)}};
}

} // namespace groupscope::sandbox
