#pragma once

#include "kafka/AdminClient.h"
#include "offsets/AuditLog.h"
#include "offsets/ResetPlan.h"

#include <atomic>

#include <chrono>

namespace groupscope::offsets {

// What happened to one group when a plan was applied.
struct GroupApplyResult {
    QString groupId;
    QString refusal;                  // why nothing was sent to this group (empty if sent)
    QList<AuditPartition> partitions; // each partition's before/after/error
    QString auditId;                  // the audit entry written for it
    QString auditError;               // the change happened but could not be recorded

    bool fullySucceeded() const;
    int failedPartitions() const;
};

struct ApplyOptions {
    QString description; // recorded in the audit entry
    QString undoOf;      // audit entry this apply undoes
    QString tool = QStringLiteral("groupscope");
    // Partitions whose committed offset is to be deleted rather than moved (an undo of a
    // reset that created the commit). Keyed by group.
    QHash<QString, QList<kafka::TopicPartition>> deletions;
    // Wait up to this long for an active group to become Empty, then apply ("arm" the
    // plan). Zero refuses active groups at once.
    std::chrono::milliseconds waitForEmpty{0};
    const std::atomic<bool>* cancelled = nullptr;
};

// Applies a resolved plan with AlterConsumerGroupOffsets, group by group. Safety first:
// a plan with errors is refused whole; a group with active members is refused before
// anything is sent to it (Kafka would refuse too) and the refusal names its members, except
// for a pure deletion of offsets, which the broker answers per partition (it refuses the
// topics the group subscribes to);
// every group that was written to gets an audit entry with the offsets before and after,
// also when only some partitions succeeded.
class ResetApplier {
public:
    ResetApplier(kafka::AdminClient& admin, AuditLog& audit)
        : m_admin(admin)
        , m_audit(audit) {}

    kafka::Result<QList<GroupApplyResult>> apply(const ResetPlan& plan,
                                                 const ApplyOptions& options);

    // Kafka's reason in plain words, with the live members, for a group that is not Empty.
    static QString activeGroupRefusal(const kafka::GroupDescription& group);
    // "client on host (member id); ..." for each member of the group.
    static QString liveMembersText(const kafka::GroupDescription& group);
    // Appends the audit entry for what happened to one group on `cluster` (bootstrap
    // servers), and notes its id (or why it could not be written) in `result`.
    static void recordInAudit(AuditLog& audit, const QString& cluster, GroupApplyResult& result,
                              const ApplyOptions& options);
    // The plan rows that undo an entry (back to each partition's "before"), plus the
    // partitions whose commit the entry created and undo therefore deletes.
    static QList<RowRequest> undoRequests(const AuditEntry& entry,
                                          QList<kafka::TopicPartition>* deletions);

private:
    GroupApplyResult applyToGroup(const QString& groupId, const QList<PlanRow>& rows,
                                  const ApplyOptions& options);
    kafka::Result<kafka::GroupDescription> waitUntilInactive(const QString& groupId,
                                                             const ApplyOptions& options);

    kafka::AdminClient& m_admin;
    AuditLog& m_audit;
};

} // namespace groupscope::offsets
