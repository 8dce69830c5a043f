#pragma once

#include <QJsonObject>
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
        uint64_t processed = 0;
        uint64_t gaps = 0;       // see ProcessingContinuity
        uint64_t skipped = 0;    // records the gaps jumped over
        uint64_t duplicates = 0; // records processed again
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
    // members billing 1, analytics 1, shipping 2, archive 0; gaps 0, duplicates shipping 3
    // (archive: offsets committed ...)".
    QString toLine() const;
    // The same as one JSON object, for `sandbox --json`.
    QJsonObject toJson() const;
};

} // namespace groupscope::sandbox
