#include "controllers/ResetController.h"

#include "offsets/JournaledWrite.h"

#include "dialogs/ApplyConfirmDialog.h"
#include "dialogs/ProductionWriteConfirm.h"

#include <QTimer>
#include <QWidget>

namespace groupscope::ui {

using monitor::AdminTaskRunner;

namespace {

kafka::KafkaError notConnected() {
    return kafka::KafkaError::invalidArgument(QStringLiteral("not connected to a cluster"));
}

// Long enough for a record of a busy log to arrive, short enough that a partition whose
// next offset holds no record (a transaction marker) does not hold up the runner's queue.
constexpr std::chrono::milliseconds previewTimeout{5000};

} // namespace

ResetController::ResetController(QObject* parent)
    : QObject(parent) {}

void ResetController::setRunner(AdminTaskRunner* runner) {
    m_runner = runner;
    // The old runner (a connection switch) drops the continuation of a write in flight:
    // its outcome is in the journal, or in doubt there until the next write to that
    // cluster reads it back. This controller must not keep refusing writes for it.
    if (m_applying) {
        m_applying = false;
        m_applyCancel.reset();
        emit applyingChanged(false);
    }
}

void ResetController::setReadOnly(bool readOnly, const QString& reason) {
    m_readOnlyReason = reason;
    if (m_readOnly == readOnly)
        return;
    m_readOnly = readOnly;
    emit readOnlyChanged(readOnly);
}

void ResetController::setProduction(bool production, const QString& profileName) {
    m_production = production;
    m_productionName = profileName;
}

void ResetController::planDeletion(QObject* context, const QString& groupId,
                                   const QStringList& topics, SessionCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [groupId, topics, done](kafka::AdminClient* admin,
                                                    const kafka::KafkaError& creationError,
                                                    const AdminTaskRunner::CancelToken&) {
        kafka::Result<offsets::ResetSession> result(creationError);
        if (admin)
            result = offsets::ResetSession::deleting(*admin, groupId, topics);
        return AdminTaskRunner::Continuation([done, result = std::move(result)] { done(result); });
    });
}

void ResetController::plan(QObject* context, const offsets::ResetSession& session,
                           SessionCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [session = session, done](kafka::AdminClient* admin,
                                                      const kafka::KafkaError& creationError,
                                                      const AdminTaskRunner::CancelToken&) mutable {
        kafka::Result<offsets::ResetSession> result(creationError);
        if (admin) {
            if (auto planned = session.resolve(*admin); !planned)
                result = planned.error();
            else
                result = std::move(session);
        }
        return AdminTaskRunner::Continuation([done, result = std::move(result)] { done(result); });
    });
}

AdminTaskRunner::CancelToken ResetController::previewRecords(QObject* context,
                                                             const offsets::ResetSession& session,
                                                             SessionCallback done) {
    if (!m_runner) {
        done(notConnected());
        return {};
    }
    // The preview reads with a consumer of its own, so only the profile crosses threads.
    return m_runner->post(context, [session = session, done, profile = m_runner->profile()](
                                       kafka::AdminClient*, const kafka::KafkaError&,
                                       const AdminTaskRunner::CancelToken& cancel) mutable {
        session.previewRecords(profile, previewTimeout, cancel.get());
        return AdminTaskRunner::Continuation(
            [done, session = std::move(session)] { done(session); });
    });
}

bool ResetController::apply(QObject* context, const offsets::ResetSession& session,
                            std::chrono::milliseconds waitForEmpty, ApplyCallback done,
                            ApplyChoices choices) {
    int deletions = 0;
    for (const auto& partitions : session.deletions())
        deletions += int(partitions.size());
    const QString what = session.plan().rows.isEmpty()
                             ? tr("Delete %n committed offset(s) of group %1.", nullptr, deletions)
                                   .arg(session.deletions().keys().join(QStringLiteral(", ")))
                             : ApplyConfirmDialog::summary(session.plan(), deletions);
    return runWrite(
        context, what,
        [session, waitForEmpty, choices](kafka::AdminClient& admin, offsets::WriteJournal& journal,
                                         const std::atomic<bool>* cancelled) {
            offsets::ApplySettings settings;
            settings.tool = QStringLiteral("groupscope " GROUPSCOPE_VERSION);
            settings.waitForEmpty = waitForEmpty;
            settings.onDrift = waitForEmpty.count() > 0 || choices.replanOnDrift
                                   ? offsets::DriftPolicy::Replan
                                   : offsets::DriftPolicy::Stop;
            settings.ignoreRecentCommits = choices.force;
            settings.cancelled = cancelled;
            return session.apply(admin, journal, settings);
        },
        std::move(done));
}

bool ResetController::deleteGroups(QObject* context, const QStringList& groupIds,
                                   ApplyCallback done) {
    return runWrite(
        context,
        tr("Delete %n group(s): %1.", nullptr, int(groupIds.size()))
            .arg(groupIds.join(QStringLiteral(", "))),
        [groupIds](kafka::AdminClient& admin, offsets::WriteJournal& journal,
                   const std::atomic<bool>*) {
            return offsets::GroupDeleter(admin, journal)
                .deleteGroups(groupIds, QStringLiteral("groupscope " GROUPSCOPE_VERSION));
        },
        std::move(done));
}

bool ResetController::mayWrite(QObject* context, const QString& what) {
    if (!m_runner)
        m_lastRefusal = tr("Not connected to a cluster.");
    else if (m_readOnly)
        m_lastRefusal = m_readOnlyReason;
    else if (m_applying)
        m_lastRefusal = tr("Another change is being applied; try again when it is done.");
    else if (m_production) {
        auto* widget = qobject_cast<QWidget*>(context);
        if (ProductionWriteConfirm::confirm(widget ? widget->window() : nullptr, m_productionName,
                                            what))
            return true;
        m_lastRefusal =
            tr("Nothing was changed on the production cluster “%1”.").arg(m_productionName);
    } else
        return true;
    return false;
}

bool ResetController::runWrite(QObject* context, const QString& what, Write write,
                               ApplyCallback done) {
    if (!mayWrite(context, what))
        return false;
    m_applying = true;
    emit applyingChanged(true);
    // The continuation runs in this controller's context (so "applying" always ends), and
    // calls back only while the asking widget still exists.
    QPointer<QObject> asker(context);
    m_applyCancel =
        m_runner->post(this, [this, write = std::move(write), asker, done](
                                 kafka::AdminClient* admin, const kafka::KafkaError& creationError,
                                 const AdminTaskRunner::CancelToken& cancel) {
            kafka::Result<QList<offsets::GroupApplyResult>> results(creationError);
            if (admin) {
                offsets::WriteJournal journal;
                // Entries a crashed process left in doubt are read back before a new write.
                offsets::recoverInDoubtEntries(*admin, journal);
                results = write(*admin, journal, cancel.get());
            }
            return AdminTaskRunner::Continuation([this, asker, done, results] {
                m_applying = false;
                m_applyCancel.reset();
                emit applyingChanged(false);
                if (results)
                    for (const auto& group : results.value())
                        if (!group.partitions.isEmpty() || !group.journalId.isEmpty())
                            emit offsetsChanged(group.groupId);
                if (asker)
                    done(results);
            });
        });
    return true;
}

void ResetController::previewDeletion(QObject* context, const QStringList& groupIds,
                                      DeletionPreviewCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [groupIds, done](kafka::AdminClient* admin,
                                             const kafka::KafkaError& creationError,
                                             const AdminTaskRunner::CancelToken&) {
        kafka::Result<QList<offsets::GroupDeletionPreview>> previews(creationError);
        if (admin) {
            offsets::WriteJournal journal; // the preview writes nothing
            previews = offsets::GroupDeleter(*admin, journal).preview(groupIds);
        }
        return AdminTaskRunner::Continuation([done, previews] { done(previews); });
    });
}

void ResetController::verifyLater(QObject* context, const QList<offsets::GroupApplyResult>& results,
                                  std::chrono::milliseconds settle, ApplyCallback done) {
    QPointer<QObject> asker(context);
    QTimer::singleShot(settle, this, [this, asker, results, done] {
        if (!m_runner || !asker)
            return; // the connection changed: the outcome stands in the journal as recorded
        m_runner->post(asker, [results, done](kafka::AdminClient* admin,
                                              const kafka::KafkaError& creationError,
                                              const AdminTaskRunner::CancelToken&) {
            kafka::Result<QList<offsets::GroupApplyResult>> verified(creationError);
            if (admin) {
                offsets::WriteJournal journal;
                QList<offsets::GroupApplyResult> checked = results;
                offsets::ResetApplier(*admin, journal)
                    .verify(checked, std::chrono::milliseconds(0));
                verified = checked;
            }
            return AdminTaskRunner::Continuation([done, verified] { done(verified); });
        });
    });
}

void ResetController::findRecentCommits(QObject* context, const QString& groupId,
                                        RecentCommitsCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [groupId, done](kafka::AdminClient* admin,
                                            const kafka::KafkaError& creationError,
                                            const AdminTaskRunner::CancelToken& cancel) {
        kafka::Result<offsets::RecentCommitReport> report(creationError);
        if (admin) {
            offsets::RecentCommits::Options options;
            options.cancelled = cancel.get();
            offsets::WriteJournal journal;
            options.ownWrites =
                offsets::RecentCommits::ownWritesOf(journal, groupId, options.history);
            report = offsets::RecentCommits::find(*admin, groupId, options);
        }
        return AdminTaskRunner::Continuation([done, report] { done(report); });
    });
}

void ResetController::cancelApply() {
    if (m_applyCancel)
        m_applyCancel->store(true);
}

void ResetController::topicPartitions(QObject* context, const QString& topic,
                                      PartitionsCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [topic, done](kafka::AdminClient* admin,
                                          const kafka::KafkaError& creationError,
                                          const AdminTaskRunner::CancelToken&) {
        if (!admin)
            return AdminTaskRunner::Continuation([done, creationError] { done(creationError); });
        auto partitions = admin->topicPartitions({topic});
        return AdminTaskRunner::Continuation(
            [done, partitions = std::move(partitions)] { done(partitions); });
    });
}

} // namespace groupscope::ui
