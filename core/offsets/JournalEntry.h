#pragma once

#include "kafka/Result.h"
#include "kafka/TopicPartition.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace groupscope::offsets {

// One partition of a write, as the journal keeps it: the committed offset (and its commit
// metadata) read just before the write, what the write asked for, and what the partition
// held afterwards. Empty offsets mean "no committed offset".
struct JournalPartition {
    kafka::TopicPartition topicPartition;
    std::optional<int64_t> before;
    QString beforeMetadata; // restored with "before" by an undo
    // What the write asked for: an offset, or empty for a deletion of the commit.
    std::optional<int64_t> planned;
    // What the partition held after the write, as the broker answered or as read back.
    std::optional<int64_t> after;
    QString error; // why this partition's write failed; empty when it succeeded
    // Found later at another offset than "after" (a consumer still committing overwrote
    // the write): that offset, and when it was seen.
    std::optional<int64_t> overwrittenWith;
    QDateTime overwrittenAt;

    bool changed() const { return error.isEmpty() && before != after; }
    bool overwritten() const { return overwrittenWith.has_value(); }
};

// Where a write stands in the journal.
enum class JournalState {
    // The intent is recorded and the write may have been sent, but no outcome was: the
    // process ended (crash, kill) or lost the answer. Resolved by reading the broker.
    InDoubt,
    Done,      // the outcome of every partition was recorded by the process that wrote
    Recovered, // it was in doubt; a later process read the outcome back from the broker
};
QString journalStateName(JournalState state); // "in doubt", "done", "recovered"

// One write (a reset, an undo, a deletion of offsets or of a group), as recorded: who
// changed which group on which cluster, how, and what happened to each partition.
struct JournalEntry {
    QString id; // sortable: UTC time plus a random suffix
    QDateTime time;
    QString cluster;   // bootstrap servers
    QString clusterId; // the cluster's id from Metadata; empty for entries from before it
    QString groupId;
    QString appliedBy;   // user@host and the tool
    QString description; // what the plan was, e.g. "to-datetime 2024-01-31T11:00:00.000Z"
    QString undoOf;      // the entry this one undid, if any
    JournalState state = JournalState::Done;
    QString note; // how an in-doubt entry was recovered, or why the outcome is partial
    QList<JournalPartition> partitions;

    bool hasOverwrittenPartitions() const;
    QJsonObject toJson() const;
    static kafka::Result<JournalEntry> fromJson(const QJsonObject& object);
};

// The entries of a JSON-lines file (the journal's plain-text form, and the audit.jsonl of
// earlier versions). A line that does not parse is skipped and named ("audit.jsonl:5:
// unterminated string") in `problems`; it never hides the other lines.
QList<JournalEntry> parseJournalLines(const QByteArray& text, const QString& sourceName,
                                      QStringList* problems);

} // namespace groupscope::offsets
