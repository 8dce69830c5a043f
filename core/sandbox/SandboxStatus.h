#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace groupscope::sandbox {

// What became of the archive group's offsets: committed by this run, kept from an earlier
// one, or not (yet).
enum class ArchiveOutcome { Pending, Committed, KeptExisting, Failed };

// What the sandbox has done so far, as a value: for the periodic status line and for tests.
struct SandboxStatus {
    struct TopicProgress {
        QString topic;
        uint64_t produced = 0; // acknowledged by the broker
    };
    struct GroupMembers {
        QString group;
        int members = 0;
    };

    QList<TopicProgress> topics;
    QList<GroupMembers> groups;
    ArchiveOutcome archiveOutcome = ArchiveOutcome::Pending;
    QString archive;      // the same, for people
    QStringList problems; // recent ones only; empty while all is well
    int64_t uptimeSeconds = 0;

    uint64_t producedTo(const QString& topic) const;
    int membersOf(const QString& group) const;

    // One line, e.g. "sandbox: 10 s; produced orders 400, payments 150, audit 800;
    // members billing 1, analytics 1, shipping 2, archive 0 (offsets committed ...)".
    QString toLine() const;
};

} // namespace groupscope::sandbox
