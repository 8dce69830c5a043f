#pragma once

#include "kafka/AdminClient.h"
#include "offsets/RecentCommits.h"
#include "offsets/ResetPlan.h"
#include "offsets/WriteJournal.h"

#include <atomic>
#include <chrono>

namespace groupscope::offsets {

// A plan row whose group moved on between the plan and the write.
struct RowDrift {
    kafka::TopicPartition topicPartition;
    std::optional<int64_t> plannedAgainst; // the committed offset the plan was resolved against
    std::optional<int64_t> committedNow;   // the committed offset just before the write
    std::optional<int64_t> plannedOffset;  // the new offset the preview showed
    std::optional<int64_t> newOffset;      // the new offset resolved again (what is written)
    QString spec;                          // e.g. "shift by -5"

    bool targetMoved() const { return plannedOffset != newOffset; }
};

// Why nothing was sent to a group.
enum class RefusalKind {
    None,
    ActiveMembers, // the group has members (Kafka would refuse too)
    Drift,         // its offsets moved since the preview (DriftPolicy::Stop)
    RecentCommits, // it has no members, but a consumer still commits to it
    NotRecorded,   // the intent could not be journaled: nothing is sent unrecorded
    Failed,        // the state could not be read, or the plan could not be resolved again
};

// What happened to one group when a plan was applied.
struct GroupApplyResult {
    QString groupId;
    RefusalKind refusalKind = RefusalKind::None;
    QString refusal;                    // why nothing was sent to this group (empty if sent)
    QList<JournalPartition> partitions; // each partition's before/planned/after/error
    QString journalId;                  // the journal entry of the write
    QString journalError;  // the write was sent but its outcome could not be recorded (yet)
    QList<RowDrift> drift; // rows whose committed offset moved since the plan
    // The group's rows resolved again against the state just before the write: what was
    // written (DriftPolicy::Replan), or what a second confirmation would write (Stop).
    QList<PlanRow> replannedRows;
    RecentCommitReport recentCommits; // what the look for a still-running consumer found
    // An armed wait's earlier writes that the broker refused whole because a consumer
    // rejoined just before they arrived (nothing written), each a journal entry; the wait
    // then went on and this result is its last try.
    QStringList refusedForMembersEntries;

    bool fullySucceeded() const;
    int failedPartitions() const;
    QList<JournalPartition> overwrittenPartitions() const;
};

// What to do when a group's committed offsets moved between the plan and the write.
enum class DriftPolicy {
    // Resolve the relative rows again against the state now and write that, reporting
    // every row whose target changed (the CLI, and an armed wait in every front end).
    Replan,
    // Write nothing to that group; its result carries the drift and the rows resolved
    // again, for a second confirmation (the GUI after a preview).
    Stop,
};

struct ApplyOptions {
    QString description; // recorded in the journal entry
    QString undoOf;      // journal entry this apply undoes
    QString tool = QStringLiteral("groupscope");
    // Partitions whose committed offset is to be deleted rather than moved (an undo of a
    // reset that created the commit). Keyed by group.
    QHash<QString, QList<kafka::TopicPartition>> deletions;
    // Commit metadata to write with the offsets, by group (an undo puts back what was there).
    QHash<QString, QHash<kafka::TopicPartition, QString>> metadata;
    // Wait up to this long for an active group to become Empty, then apply ("arm" the
    // plan). Zero refuses active groups at once.
    std::chrono::milliseconds waitForEmpty{0};
    DriftPolicy onDrift = DriftPolicy::Replan;
    // Write even though a consumer outside the group's membership still commits (--force).
    bool ignoreRecentCommits = false;
    RecentCommits::Options recentCommits;
    // Stops an armed wait and anything not yet sent; a write already sent is finished
    // and recorded.
    const std::atomic<bool>* cancelled = nullptr;
};

// Applies a resolved plan with AlterConsumerGroupOffsets, group by group, so that the write
// lands on the state it was planned for and never goes unrecorded:
//   - a plan with errors is refused whole;
//   - a group with active members is refused before anything is sent (Kafka would refuse
//     too) and the refusal names them, except for a pure deletion of offsets, which the
//     broker answers per partition; with waitForEmpty the plan is armed until it empties,
//     and a consumer that rejoins before the write arrives makes it wait again;
//   - the group's committed offsets are read again just before the write: rows whose
//     group moved on are resolved again (or the group is refused, see DriftPolicy);
//   - a group without members that a consumer still commits to is refused (RecentCommits);
//   - the write goes through JournaledWrite: intent journaled first, outcome read back.
// verify() then reads the written offsets again after a settling period.
class ResetApplier {
public:
    ResetApplier(kafka::AdminClient& admin, WriteJournal& journal)
        : m_admin(admin)
        , m_journal(journal) {}

    kafka::Result<QList<GroupApplyResult>> apply(const ResetPlan& plan,
                                                 const ApplyOptions& options);
    // Waits `settle` (unless cancelled), reads every written group's offsets back and marks
    // the partitions found at another offset as overwritten, in `results` and the journal.
    void verify(QList<GroupApplyResult>& results, std::chrono::milliseconds settle,
                const std::atomic<bool>* cancelled = nullptr);

    // Kafka's reason in plain words, with the live members, for a group that is not Empty.
    static QString activeGroupRefusal(const kafka::GroupDescription& group);
    // "client on host (member id); ..." for each member of the group.
    static QString liveMembersText(const kafka::GroupDescription& group);

private:
    // One try at writing a group's rows; `waitAgain` when an armed wait is not over: the
    // group had members again just before the write, or the broker refused it for them.
    struct Attempt {
        GroupApplyResult result;
        bool waitAgain = false;
    };

    // Tries until a try writes, is refused for another reason, or the armed wait is over.
    GroupApplyResult applyToGroup(const QString& groupId, const QList<PlanRow>& rows,
                                  const ApplyOptions& options);
    // `waitedBefore`: an earlier try of the same armed wait waited, so the rows are resolved
    // again against the state found now.
    Attempt attemptWrite(const QString& groupId, QList<PlanRow> rows, const ApplyOptions& options,
                         bool waitedBefore);
    kafka::Result<kafka::GroupDescription>
    waitUntilInactive(const QString& groupId, const ApplyOptions& options, bool* waited);
    // Compares the rows with the committed offsets now and resolves the drifted groups'
    // relative rows again (all non-absolute rows after an armed wait). False with
    // result.refusal set when that fails or the policy stops.
    bool checkDrift(QList<PlanRow>& rows, const QHash<kafka::TopicPartition, int64_t>& committed,
                    bool waited, const ApplyOptions& options, GroupApplyResult& result);

    kafka::AdminClient& m_admin;
    WriteJournal& m_journal;
};

} // namespace groupscope::offsets
