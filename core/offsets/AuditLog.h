#pragma once

#include "kafka/Result.h"
#include "kafka/TopicPartition.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace groupscope::offsets {

// One partition of an applied change: the committed offset before and after (empty means
// "no committed offset"), and the error when this partition's write failed.
struct AuditPartition {
    kafka::TopicPartition topicPartition;
    std::optional<int64_t> before;
    std::optional<int64_t> after;
    QString error;
};

// One apply, as recorded: who changed which group's offsets on which cluster, and how.
struct AuditEntry {
    QString id; // sortable: UTC time plus a random suffix
    QDateTime time;
    QString cluster; // bootstrap servers
    QString groupId;
    QString appliedBy;   // user@host and the tool
    QString description; // what the plan was, e.g. "to-datetime 2024-01-31T11:00:00.000Z"
    QString undoOf;      // the entry this one undid, if any
    QList<AuditPartition> partitions;

    QJsonObject toJson() const;
    static kafka::Result<AuditEntry> fromJson(const QJsonObject& object);
};

// The audit trail: JSON lines, one entry per apply, appended under a lock file so two
// processes never interleave. Never holds secrets: entries carry the bootstrap list only.
class AuditLog {
public:
    // GROUPSCOPE_DATA_DIR, else the user's data directory (~/.local/share/groupscope).
    static QString defaultPath();
    explicit AuditLog(QString path = defaultPath())
        : m_path(std::move(path)) {}

    const QString& path() const { return m_path; }
    kafka::Status append(const AuditEntry& entry);
    // All entries, oldest first. Lines that do not parse are reported, not skipped silently.
    kafka::Result<QList<AuditEntry>> readAll() const;
    kafka::Result<AuditEntry> find(const QString& id) const;

    static QString newEntryId();
    static QString currentUser(); // user@host

private:
    QString m_path;
};

} // namespace groupscope::offsets
