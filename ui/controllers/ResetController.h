#pragma once

#include "monitor/AdminTaskRunner.h"
#include "offsets/GroupDeleter.h"
#include "offsets/ResetSession.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::ui {

// What the user already confirmed about a write.
struct WriteChoices {
    // Write although a consumer still commits to a group without members.
    bool force = false;
    // The user saw the group move and confirmed the plan resolved again: resolve it once
    // more at the write instead of asking a third time (and report what moved).
    bool replanOnDrift = false;
};

// Runs the network steps of an offsets::ResetSession (the same type groupscope-cli's reset,
// undo and delete-offsets drive) on the AdminTaskRunner's worker thread: plan, preview the
// next records, apply. Each step gets a copy of the session and hands the updated copy (or
// the outcome) back to the GUI thread through a callback. Shared by the offsets table and
// the History tab, so "one apply at a time" and the read-only rule hold for both.
class ResetController : public QObject {
    Q_OBJECT
public:
    explicit ResetController(QObject* parent = nullptr);

    // Takes the runner of a new connection (this controller becomes its parent). A write
    // still running on the previous runner is not dropped: it stops if nothing was sent
    // yet (a wait for an empty group ends; nothing is written), completes and is journaled
    // if it was; its outcome comes as writeFinished(), and that runner goes once it is in.
    void setRunner(monitor::AdminTaskRunner* runner);
    monitor::AdminTaskRunner* runner() const { return m_runner; }
    // The connected cluster's id (from Metadata), once read after setRunner(); empty until
    // then or when the cluster did not say.
    QString clusterId() const { return m_clusterId; }
    // A read-only connection profile refuses every write, with this reason.
    void setReadOnly(bool readOnly, const QString& reason = {});
    bool isReadOnly() const { return m_readOnly; }
    QString readOnlyReason() const { return m_readOnlyReason; }
    bool isApplying() const { return m_applying; }
    // A production profile (SavedConnection::production) asks a second time before every
    // write, naming the profile (ProductionWriteConfirm); a declined ask refuses the write.
    void setProduction(bool production, const QString& profileName = {});
    bool isProduction() const { return m_production; }
    // Why the last apply() or deleteGroups() that returned false refused: read-only, another
    // write still running, or the production question declined.
    QString lastRefusal() const { return m_lastRefusal; }

    using SessionCallback = std::function<void(const kafka::Result<offsets::ResetSession>&)>;
    using ApplyCallback =
        std::function<void(const kafka::Result<QList<offsets::GroupApplyResult>>&)>;
    using PartitionsCallback =
        std::function<void(const kafka::Result<QList<kafka::TopicPartition>>&)>;

    // Resolves the session's rows against the live log (ResetSession::resolve).
    void plan(QObject* context, const offsets::ResetSession& session, SessionCallback done);
    // Reads the record at each planned row's new offset (ResetSession::previewRecords);
    // set the returned token to abandon it (a new plan or an apply makes it stale).
    monitor::AdminTaskRunner::CancelToken
    previewRecords(QObject* context, const offsets::ResetSession& session, SessionCallback done);
    // A session that deletes the committed offsets of `topics` ("topic" or "topic:0,2") of
    // one group (ResetSession::deleting), with the commits it removes in deletionRows.
    void planDeletion(QObject* context, const QString& groupId, const QStringList& topics,
                      SessionCallback done);
    using ApplyChoices = WriteChoices;
    // Applies a planned session, waiting up to `waitForEmpty` for active groups. Refused at
    // once (callback not called, false returned, lastRefusal() says why) when read-only,
    // busy, or on production when the second question is declined. Without a wait, a group
    // whose offsets moved since the plan is not written (RefusalKind::Drift, with the rows
    // resolved again for a second confirmation); an armed wait resolves them again itself.
    bool apply(QObject* context, const offsets::ResetSession& session,
               std::chrono::milliseconds waitForEmpty, ApplyCallback done,
               ApplyChoices choices = {});
    // Abandons the apply in flight if it was not sent yet (a wait for the group to become
    // empty ends); a write already on its way completes and is recorded.
    void cancelApply();

    using DeletionPreviewCallback =
        std::function<void(const kafka::Result<QList<offsets::GroupDeletionPreview>>&)>;
    // What deleting the groups would do, read now (GroupDeleter::preview).
    void previewDeletion(QObject* context, const QStringList& groupIds,
                         DeletionPreviewCallback done);
    // Deletes the groups (GroupDeleter): a write like apply(), refused the same way when
    // read-only or busy, each group's outcome in the callback.
    bool deleteGroups(QObject* context, const QStringList& groupIds, ApplyCallback done);
    void topicPartitions(QObject* context, const QString& topic, PartitionsCallback done);

    using RecentCommitsCallback =
        std::function<void(const kafka::Result<offsets::RecentCommitReport>&)>;
    // Looks for commits to a group without members from a consumer that never joins it
    // (RecentCommits): what the confirmation names before a write, so that the user who
    // confirms it has seen it (the write then does not ask again).
    void findRecentCommits(QObject* context, const QString& groupId, RecentCommitsCallback done);

signals:
    void applyingChanged(bool applying);
    void readOnlyChanged(bool readOnly);
    // The connection changed, or its cluster id was read.
    void clusterChanged();
    // Offsets were written (fully or partly) or a group deleted: views should refresh and
    // history reload.
    void offsetsChanged(const QString& groupId);
    // Every write's outcome in a line ("Group g: 4 of 4 partition(s) written; journal entry
    // …"), also when the widget that asked is gone or the connection changed meanwhile.
    void writeFinished(const QString& summary);
    // Offsets written a while ago (verifyAfter) were read again and some are no longer
    // what was written: a consumer still commits. Marked overwritten in the journal too.
    void overwrittenAfterWrite(const QList<offsets::GroupApplyResult>& verified);

private:
    using Write = std::function<kafka::Result<QList<offsets::GroupApplyResult>>(
        kafka::AdminClient& admin, offsets::WriteJournal& journal,
        const std::atomic<bool>* cancelled)>;
    // Runs one write on the runner: one at a time, never when read-only, on production only
    // after the second question about `what` ("Apply: replays 12 messages …").
    enum class ReadAgain { Later, No };
    bool runWrite(QObject* context, const QString& what, Write write, ApplyCallback done,
                  ReadAgain readAgain);
    bool mayWrite(QObject* context, const QString& what);
    // Reads the written groups back `verifyAfter` later on the runner that wrote them (not
    // when that connection is gone by then) and says which were overwritten
    // (ResetApplier::verify).
    void verifyLater(const QList<offsets::GroupApplyResult>& results,
                     QPointer<monitor::AdminTaskRunner> runner);

    QPointer<monitor::AdminTaskRunner> m_runner;
    QString m_clusterId;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    bool m_production = false;
    QString m_productionName;
    QString m_lastRefusal;
    bool m_applying = false;
    // The write in flight stops at its next step before anything is sent when set.
    std::shared_ptr<std::atomic<bool>> m_stopBeforeSending;
};

} // namespace groupscope::ui
