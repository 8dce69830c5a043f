#include "controllers/ResetController.h"

namespace groupscope::ui {

using monitor::AdminTaskRunner;

namespace {

kafka::KafkaError notConnected() {
    return kafka::KafkaError::invalidArgument(QStringLiteral("not connected to a cluster"));
}

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

void ResetController::plan(QObject* context, const QList<offsets::RowRequest>& requests,
                           PlanCallback done) {
    if (!m_runner) {
        done(notConnected());
        return;
    }
    m_runner->post(context, [requests, done](kafka::AdminClient* admin,
                                             const kafka::KafkaError& creationError,
                                             const AdminTaskRunner::CancelToken&) {
        if (!admin)
            return AdminTaskRunner::Continuation([done, creationError] { done(creationError); });
        auto plan = offsets::ResetPlanner(*admin).plan(requests);
        return AdminTaskRunner::Continuation([done, plan = std::move(plan)] { done(plan); });
    });
}

bool ResetController::apply(QObject* context, const offsets::ResetPlan& plan,
                            offsets::ApplyOptions options, ApplyCallback done) {
    if (m_readOnly || m_applying || !m_runner)
        return false;
    m_applying = true;
    emit applyingChanged(true);
    // The continuation runs in this controller's context (so "applying" always ends), and
    // calls back only while the asking widget still exists.
    QPointer<QObject> asker(context);
    m_applyCancel =
        m_runner->post(this, [this, plan, options, asker, done](
                                 kafka::AdminClient* admin, const kafka::KafkaError& creationError,
                                 const AdminTaskRunner::CancelToken& cancel) {
            kafka::Result<QList<offsets::GroupApplyResult>> results(creationError);
            if (admin) {
                offsets::AuditLog audit;
                offsets::ApplyOptions withCancel = options;
                withCancel.cancelled = cancel.get();
                results = offsets::ResetApplier(*admin, audit).apply(plan, withCancel);
            }
            return AdminTaskRunner::Continuation([this, asker, done, results] {
                m_applying = false;
                m_applyCancel.reset();
                emit applyingChanged(false);
                if (results)
                    for (const auto& group : results.value())
                        if (!group.partitions.isEmpty())
                            emit offsetsChanged(group.groupId);
                if (asker)
                    done(results);
            });
        });
    return true;
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
