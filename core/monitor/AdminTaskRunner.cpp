#include "monitor/AdminTaskRunner.h"

namespace groupscope::monitor {

// Lives on the runner's thread and owns the AdminClient there.
class AdminTaskRunner::Worker : public QObject {
public:
    Worker(kafka::ConnectionProfile profile, Milliseconds timeout)
        : m_profile(std::move(profile))
        , m_timeout(timeout) {}

    Continuation run(const Job& job, const CancelToken& cancel) {
        kafka::AdminClient::renewIfCoordinatorMoved(m_admin);
        if (!m_admin) {
            auto created = kafka::AdminClient::create(m_profile, m_timeout);
            if (created)
                m_admin = std::move(created).value();
            else
                m_creationError = created.error();
        }
        if (!m_admin)
            return job(nullptr, m_creationError, cancel);
        m_admin->setCancelFlag(cancel.get());
        Continuation continuation = job(m_admin.get(), {}, cancel);
        m_admin->setCancelFlag(nullptr);
        return continuation;
    }

private:
    const kafka::ConnectionProfile m_profile;
    const Milliseconds m_timeout;
    std::unique_ptr<kafka::AdminClient> m_admin;
    kafka::KafkaError m_creationError;
};

AdminTaskRunner::AdminTaskRunner(kafka::ConnectionProfile profile, Milliseconds requestTimeout,
                                 QObject* parent)
    : QObject(parent)
    , m_profile(std::move(profile))
    , m_requestTimeout(requestTimeout)
    , m_stopped(std::make_shared<std::atomic<bool>>(false)) {
    m_thread.setObjectName(QStringLiteral("AdminTaskRunner"));
    m_worker = new Worker(m_profile, m_requestTimeout);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

AdminTaskRunner::~AdminTaskRunner() {
    m_stopped->store(true);
    for (const auto& weak : std::as_const(m_tokens))
        if (const auto token = weak.lock())
            token->store(true);
    m_thread.quit();
    m_thread.wait();
}

AdminTaskRunner::CancelToken AdminTaskRunner::post(QObject* context, Job job) {
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_tokens.removeIf([](const auto& weak) { return weak.expired(); });
    m_tokens.append(cancel);
    if (m_pending.fetch_add(1) == 0)
        emit busyChanged(true);
    QPointer<QObject> guard(context);
    QPointer<AdminTaskRunner> self(this);
    auto stopped = m_stopped;
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, job = std::move(job), cancel, guard, self, stopped] {
            Continuation continuation;
            // A runner being destroyed skips queued jobs rather than running them.
            if (!stopped->load())
                continuation = worker->run(job, cancel);
            if (stopped->load())
                return;
            QMetaObject::invokeMethod(
                self.data(),
                [continuation = std::move(continuation), guard, self] {
                    if (!self)
                        return;
                    if (self->m_pending.fetch_sub(1) == 1)
                        emit self->busyChanged(false);
                    if (guard && continuation)
                        continuation();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return cancel;
}

} // namespace groupscope::monitor
