#include "controllers/ResetController.h"

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
}

void ResetController::setReadOnly(bool readOnly, const QString& reason) {
    m_readOnlyReason = reason;
    if (m_readOnly == readOnly)
        return;
    m_readOnly = readOnly;
    emit readOnlyChanged(readOnly);
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
                            std::chrono::milliseconds waitForEmpty, ApplyCallback done) {
    return runWrite(
        context,
        [session, waitForEmpty](kafka::AdminClient& admin, offsets::AuditLog& audit,
                                const std::atomic<bool>* cancelled) {
            offsets::ApplySettings settings;
            settings.tool = QStringLiteral("groupscope " GROUPSCOPE_VERSION);
            settings.waitForEmpty = waitForEmpty;
            settings.cancelled = cancelled;
            return session.apply(admin, audit, settings);
        },
        std::move(done));
}

bool ResetController::deleteGroups(QObject* context, const QStringList& groupIds,
                                   ApplyCallback done) {
    return runWrite(
        context,
        [groupIds](kafka::AdminClient& admin, offsets::AuditLog& audit, const std::atomic<bool>*) {
            return offsets::GroupDeleter(admin, audit)
                .deleteGroups(groupIds, QStringLiteral("groupscope " GROUPSCOPE_VERSION));
        },
        std::move(done));
}

bool ResetController::runWrite(QObject* context, Write write, ApplyCallback done) {
    if (m_readOnly || m_applying || !m_runner)
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
                offsets::AuditLog audit;
                results = write(*admin, audit, cancel.get());
            }
            return AdminTaskRunner::Continuation([this, asker, done, results] {
                m_applying = false;
                m_applyCancel.reset();
                emit applyingChanged(false);
                if (results)
                    for (const auto& group : results.value())
                        if (!group.partitions.isEmpty() || !group.auditId.isEmpty())
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
            offsets::AuditLog audit; // the preview writes nothing
            previews = offsets::GroupDeleter(*admin, audit).preview(groupIds);
        }
        return AdminTaskRunner::Continuation([done, previews] { done(previews); });
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
