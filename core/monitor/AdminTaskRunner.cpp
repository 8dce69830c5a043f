#include "monitor/AdminTaskRunner.h"

namespace groupscope::monitor {

// Lives on the runner's thread and owns the AdminClient there.
class AdminTaskRunner::Worker : public QObject {
public:
    explicit Worker(AdminTaskRunner* owner)
        : m_profile(owner->m_profile)
        , m_timeout(owner->m_requestTimeout)
        , m_stopped(owner->m_stopped)
        , m_finishedJobs(owner->m_finishedJobs) {}

    // Thread-safe: called on the runner's thread.
    void queue(QueuedJob job) { m_queuedJobs.post(std::move(job)); }

private:
    void runQueuedJobs() {
        for (QueuedJob& queued : m_queuedJobs.takeAll()) {
            // A runner being destroyed skips queued jobs rather than running them.
            if (m_stopped->load())
                return;
            Continuation continuation = run(queued.job, queued.cancel);
            if (m_stopped->load())
                return;
            m_finishedJobs.post({std::move(continuation), std::move(queued.context)});
        }
    }

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

    const kafka::ConnectionProfile m_profile;
    const Milliseconds m_timeout;
    const std::shared_ptr<std::atomic<bool>> m_stopped;
    ThreadMailbox<QueuedJob> m_queuedJobs{this, &Worker::runQueuedJobs};
    ThreadMailbox<FinishedJob>& m_finishedJobs; // the owner's: it joins this thread first
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
    m_worker = new Worker(this);
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
    m_worker->queue({std::move(job), cancel, context});
    return cancel;
}

void AdminTaskRunner::takeFinishedJobs() {
    const QPointer<AdminTaskRunner> self(this);
    for (FinishedJob& finished : m_finishedJobs.takeAll()) {
        if (m_pending.fetch_sub(1) == 1)
            emit busyChanged(false);
        if (finished.context && finished.continuation)
            finished.continuation();
        if (!self)
            return; // a continuation closed the connection this runner served
    }
}

} // namespace groupscope::monitor
