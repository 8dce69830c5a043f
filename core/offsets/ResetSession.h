#pragma once

#include "kafka/AdminClient.h"
#include "offsets/RecordPreviewer.h"
#include "offsets/ResetApplier.h"
#include "offsets/ResetPlanner.h"
#include "offsets/WriteJournal.h"

#include <atomic>
#include <chrono>

namespace groupscope::offsets {

// How an apply runs; what is applied is the session's.
struct ApplySettings {
    QString tool = QStringLiteral("groupscope"); // recorded in the journal entry
    // Wait up to this long for an active group to become Empty; zero refuses it at once.
    std::chrono::milliseconds waitForEmpty{0};
    DriftPolicy onDrift = DriftPolicy::Replan;
    bool ignoreRecentCommits = false; // write although a consumer still commits (--force)
    RecentCommits::Options recentCommits;
    const std::atomic<bool>* cancelled = nullptr;
};

// A partition an undo would restore although it moved since the entry: its offset before
// the entry, what the entry left it at, and what it holds now.
struct UndoConflict {
    kafka::TopicPartition topicPartition;
    std::optional<int64_t> before;
    std::optional<int64_t> after;
    std::optional<int64_t> now;
};

// A partition whose committed offset a deletion removes, with the offset it has now.
struct DeletionRow {
    kafka::TopicPartition topicPartition;
    std::optional<int64_t> committedOffset;
};

// One reset of consumer group offsets, from the user's request to the write journal: what to
// change (rows of a table, a scope, a file, a journal entry to undo, offsets to delete) ->
// plan against the live log -> preview (the record each row would read next) -> apply ->
// each partition's outcome, recorded in the write journal with the offsets before and after.
// groupscope-cli's reset, undo and delete-offsets and the GUI's Reset offsets and History
// tabs all drive this type; they only collect input and render what it says.
//
// A session is a value: the GUI copies it into a job on its AdminTaskRunner thread, runs
// one network step there and gets the updated copy back, so the GUI thread never waits on
// the network. Steps that take an AdminClient use the network; the others do not.
class ResetSession {
public:
    using RecordPreviews = QHash<RecordPreviewer::Key, RecordPreview>;

    ResetSession() = default;
    // Rows edited in a table; the journal entry names their spec, or "edited in the offsets
    // table" when they differ.
    static ResetSession forRequests(QList<RowRequest> requests);
    // Every partition of a scope of groups with one spec (network: expands the scope).
    static kafka::Result<ResetSession> forScope(kafka::AdminClient& admin,
                                                const QStringList& groupIds,
                                                const ResetScope& scope, const ResetSpec& spec);
    // The rows of a Kafka offsets file, each "to offset N"; errors name file and line.
    static kafka::Result<ResetSession> fromFile(const QString& path, const QStringList& groupIds);
    // The inverse of a journal entry: each changed partition back to its "before", and the
    // commits the entry created deleted. An error when the entry changed nothing. After
    // resolve(), undoConflicts() names the partitions that moved since the entry.
    static kafka::Result<ResetSession> undoOf(const JournalEntry& entry);
    // Deletes a group's committed offsets on "topic" or "topic:0,2" arguments (network:
    // a topic without partitions named covers all of them).
    static kafka::Result<ResetSession> deleting(kafka::AdminClient& admin, const QString& groupId,
                                                const QStringList& topics);
    // Why undoing `entry` on the cluster with id `clusterId` (at `bootstrapServers`) may
    // write offsets that were never that group's (another cluster with the same group
    // name); empty when it is the same. Entries without a cluster id compare bootstrap lists.
    static QString clusterMismatch(const JournalEntry& entry, const QString& clusterId,
                                   const QString& bootstrapServers);

    // Plan: resolves every row against the live log (ResetPlanner).
    kafka::Status resolve(kafka::AdminClient& admin);
    // Preview: reads the record at each row's new offset, without joining any group.
    void previewRecords(const kafka::ConnectionProfile& profile, std::chrono::milliseconds timeout,
                        const std::atomic<bool>* cancelled = nullptr);
    // For a dry run: why applying would be refused for the plan's groups that have members.
    kafka::Result<QStringList> activeGroupRefusals(kafka::AdminClient& admin) const;
    // For a dry run of a deletion: each partition with the commit it would lose, and how many
    // members the group has (the broker keeps the commits of topics they subscribe to).
    kafka::Result<QList<DeletionRow>> deletionRows(kafka::AdminClient& admin,
                                                   int* memberCount = nullptr) const;
    // Keeps only the rows that move an offset: what a confirmation shows and apply writes.
    void dropUnchangedRows();
    // An undo's partitions whose committed offset is no longer the entry's "after" (someone
    // committed since, or the entry's write was overwritten). Known after resolve().
    const QList<UndoConflict>& undoConflicts() const { return m_undoConflicts; }
    // For an undo: why the cluster connected to may not be the entry's (clusterMismatch),
    // checked by resolve(); empty when it is the same.
    const QString& undoClusterMismatch() const { return m_undoClusterMismatch; }
    // Leaves the conflicting partitions as they are: the undo restores only the others.
    void skipUndoConflicts();
    // Replaces the plan with rows resolved again (a second confirmation after drift).
    void replacePlanRows(const QString& groupId, const QList<PlanRow>& rows);
    // Apply: refused whole while the plan has errors; see ResetApplier.
    kafka::Result<QList<GroupApplyResult>> apply(kafka::AdminClient& admin, WriteJournal& journal,
                                                 const ApplySettings& settings) const;

    const QList<RowRequest>& requests() const { return m_requests; }
    bool isPlanned() const { return m_planned; }
    const ResetPlan& plan() const { return m_plan; }
    const RecordPreviews& previews() const { return m_previews; }
    // The record a planned row would read next, when it was previewed.
    std::optional<RecordPreview> nextRecord(const PlanRow& row) const;
    // The commits this session deletes, by group (undo of a created commit, delete-offsets).
    const QHash<QString, QList<kafka::TopicPartition>>& deletions() const { return m_deletions; }
    // What the journal entry says the change was, e.g. "to-offset 5" or "undo of ID".
    const QString& description() const { return m_description; }
    const QString& undoneEntry() const { return m_undoOf; }

private:
    kafka::Status findUndoConflicts(kafka::AdminClient& admin);
    QString groupOfUndo() const;

    QList<RowRequest> m_requests;
    QHash<QString, QList<kafka::TopicPartition>> m_deletions;
    QString m_description;
    QString m_undoOf;
    QList<JournalPartition> m_undoneParts; // the undone entry's partitions
    // The commit metadata each partition had before the undone entry, written back with it.
    QHash<kafka::TopicPartition, QString> m_undoMetadata;
    QList<UndoConflict> m_undoConflicts;
    QString m_undoneClusterId;
    QString m_undoneCluster;
    QString m_undoClusterMismatch;
    bool m_describedBySpecs = false; // forRequests: the description follows the rows
    bool m_planned = false;
    ResetPlan m_plan;
    RecordPreviews m_previews;
};

} // namespace groupscope::offsets
