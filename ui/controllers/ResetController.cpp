#include "controllers/ResetController.h"

#include "offsets/JournaledWrite.h"

#include "dialogs/ApplyConfirmDialog.h"
#include "dialogs/ProductionWriteConfirm.h"

#include <QTimer>

#include <QWidget>
#include <algorithm>

namespace groupscope::ui {

using monitor::AdminTaskRunner;

namespace {

kafka::KafkaError notConnected() {
    return kafka::KafkaError::invalidArgument(QStringLiteral("not connected to a cluster"));
}

// Long enough for a record of a busy log to arrive, short enough that a partition whose
// next offset holds no record (a transaction marker) does not hold up the runner's queue.
constexpr std::chrono::milliseconds previewTimeout{5000};

// How long after a write its groups are read again, in the background: long enough for a
// consumer that still commits (every 5 s by default) to have overwritten it.
constexpr std::chrono::seconds verifyAfter{10};

QString writeSummary(const kafka::Result<QList<offsets::GroupApplyResult>>& results) {
    if (!results)
        return ResetController::tr("The write failed: %1").arg(results.error().message);
    QStringList lines;
    for (const offsets::GroupApplyResult& group : results.value()) {
        if (!group.refusal.isEmpty()) {
            lines.append(ResetController::tr("Group %1: nothing was written (%2).")
                             .arg(group.groupId, group.refusal));
            continue;
        }
        const int total = int(group.partitions.size());
        lines.append(
            ResetController::tr("Group %1: %2 of %n partition(s) written; journal entry %3.",
                                nullptr, total)
                .arg(group.groupId)
                .arg(total - group.failedPartitions())
                .arg(group.journalId));
        if (!group.refusedForMembersEntries.isEmpty())
            lines.append(ResetController::tr("Before it, a consumer rejoined just as the write "
                                             "was sent, which Kafka refused (nothing changed; "
                                             "journal entries %1); the wait went on.")
                             .arg(group.refusedForMembersEntries.join(QStringLiteral(", "))));
    }
    return lines.join(QLatin1Char(' '));
}

} // namespace

ResetController::ResetController(QObject* parent)
    : QObject(parent) {}

void ResetController::setRunner(AdminTaskRunner* runner) {
    if (m_runner && m_applying)
        m_stopBeforeSending->store(true); // the write's continuation deletes its runner
    else if (m_runner)
        m_runner->deleteLater();
    m_runner = runner;
    m_clusterId.clear();
    emit clusterChanged();
    if (!runner)
        return;
    runner->setParent(this);
    runner->post(this, [this, runner = QPointer<AdminTaskRunner>(runner)](
                           kafka::AdminClient* admin, const kafka::KafkaError&,
                           const AdminTaskRunner::CancelToken&) {
        QString id;
        if (admin)
            if (auto read = admin->clusterId())
                id = read.value();
        return AdminTaskRunner::Continuation([this, runner, id] {
            if (runner != m_runner || id.isEmpty())
                return;
            m_clusterId = id;
            emit clusterChanged();
        });
    });
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
                                         const std::atomic<bool>* stopBeforeSending) {
            offsets::ApplySettings settings;
            settings.tool = QStringLiteral("groupscope " GROUPSCOPE_VERSION);
            settings.waitForEmpty = waitForEmpty;
            settings.onDrift = waitForEmpty.count() > 0 || choices.replanOnDrift
                                   ? offsets::DriftPolicy::Replan
                                   : offsets::DriftPolicy::Stop;
            settings.ignoreRecentCommits = choices.force;
            settings.cancelled = stopBeforeSending;
            return session.apply(admin, journal, settings);
        },
        std::move(done), ReadAgain::Later);
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
        std::move(done), ReadAgain::No);
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
                               ApplyCallback done, ReadAgain readAgain) {
    if (!mayWrite(context, what))
        return false;
    m_applying = true;
    m_stopBeforeSending = std::make_shared<std::atomic<bool>>(false);
    emit applyingChanged(true);
    // The continuation runs in this controller's context (so "applying" always ends, also
    // after a connection switch), and calls back only while the asking widget exists. The
    // runner's own cancel token is left alone: it would abort a write already on its way.
    QPointer<QObject> asker(context);
    QPointer<AdminTaskRunner> runner(m_runner);
    m_runner->post(this, [this, write = std::move(write), stop = m_stopBeforeSending, asker, runner,
                          readAgain,
                          done](kafka::AdminClient* admin, const kafka::KafkaError& creationError,
                                const AdminTaskRunner::CancelToken&) {
        kafka::Result<QList<offsets::GroupApplyResult>> results(creationError);
        if (admin) {
            offsets::WriteJournal journal;
            // Entries a crashed process left in doubt are read back before a new write.
            offsets::recoverInDoubtEntries(*admin, journal);
            results = write(*admin, journal, stop.get());
        }
        return AdminTaskRunner::Continuation([this, asker, runner, readAgain, done, results] {
            m_applying = false;
            m_stopBeforeSending.reset();
            emit applyingChanged(false);
            if (results)
                for (const auto& group : results.value())
                    if (!group.partitions.isEmpty() || !group.journalId.isEmpty())
                        emit offsetsChanged(group.groupId);
            emit writeFinished(writeSummary(results));
            if (runner != m_runner)
                runner->deleteLater(); // a connection switched away from while it wrote
            else if (results && readAgain == ReadAgain::Later)
                verifyLater(results.value(), runner);
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

void ResetController::verifyLater(const QList<offsets::GroupApplyResult>& results,
                                  QPointer<AdminTaskRunner> runner) {
    const bool wrote = std::any_of(results.cbegin(), results.cend(), [](const auto& group) {
        return group.partitions.size() > group.failedPartitions();
    });
    if (!wrote)
        return;
    QTimer::singleShot(verifyAfter, this, [this, results, runner] {
        if (!runner || runner != m_runner)
            return; // the connection changed: the outcome stands in the journal as recorded
        runner->post(this, [this, results](kafka::AdminClient* admin, const kafka::KafkaError&,
                                           const AdminTaskRunner::CancelToken&) {
            if (!admin)
                return AdminTaskRunner::Continuation();
            offsets::WriteJournal journal;
            QList<offsets::GroupApplyResult> checked = results;
            offsets::ResetApplier(*admin, journal).verify(checked, std::chrono::milliseconds(0));
            return AdminTaskRunner::Continuation([this, checked] {
                const bool overwritten =
                    std::any_of(checked.cbegin(), checked.cend(), [](const auto& group) {
                        return !group.overwrittenPartitions().isEmpty();
                    });
                if (!overwritten)
                    return;
                for (const offsets::GroupApplyResult& group : checked)
                    emit offsetsChanged(group.groupId);
                emit overwrittenAfterWrite(checked);
            });
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
    if (m_stopBeforeSending)
        m_stopBeforeSending->store(true);
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
