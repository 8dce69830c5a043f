#include "sandbox/SandboxStatus.h"

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
    QString line =
        QStringLiteral("sandbox: %1 s; produced %2; members %3")
            .arg(uptimeSeconds)
            .arg(produced.join(QStringLiteral(", ")), members.join(QStringLiteral(", ")));
    if (!archive.isEmpty())
        line += QStringLiteral(" (archive: %1)").arg(archive);
    if (!problems.isEmpty())
        line += QStringLiteral("; problem: ") + problems.join(QStringLiteral("; "));
    return line;
}

} // namespace groupscope::sandbox
