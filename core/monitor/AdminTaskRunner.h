#pragma once

#include "kafka/AdminClient.h"
#include "kafka/ConnectionProfile.h"
#include "monitor/ThreadMailbox.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::monitor {

// Runs one-off Admin API jobs (plan a reset, apply it, list a topic's partitions, test a
// connection) on a worker thread, one at a time, and hands each result back to the
// caller's thread. It follows ClusterMonitor's thread model: the AdminClient is created,
// used and destroyed on the runner's own QThread, so the GUI thread never waits on the
// network and the librdkafka handle belongs to one thread only.
//
// A job is a function that runs on the worker with the AdminClient (or the error that kept
// it from being created) and returns the continuation to run on the caller's thread. The
// continuation is dropped when `context` was destroyed meanwhile or the runner stopped.
class AdminTaskRunner : public QObject {
    Q_OBJECT
public:
    using Milliseconds = std::chrono::milliseconds;
    using CancelToken = std::shared_ptr<std::atomic<bool>>;
    using Continuation = std::function<void()>;
    // `admin` is null when the client could not be created; `creationError` says why.
    using Job = std::function<Continuation(kafka::AdminClient* admin,
                                           const kafka::KafkaError& creationError,
                                           const CancelToken& cancel)>;

    explicit AdminTaskRunner(kafka::ConnectionProfile profile,
                             Milliseconds requestTimeout = Milliseconds(10000),
                             QObject* parent = nullptr);
    // Cancels the job in flight (its Admin call returns within about 100 ms, a wait for an
    // empty group ends too), skips queued jobs and waits for the worker thread.
    ~AdminTaskRunner() override;

    const kafka::ConnectionProfile& profile() const { return m_profile; }

    // Queues a job; returns its cancel token (set it to abandon the job's Admin calls).
    CancelToken post(QObject* context, Job job);
    // Jobs queued or running.
    int pendingJobs() const { return m_pending.load(); }

signals:
    void busyChanged(bool busy);

private:
    class Worker;
    struct QueuedJob {
        Job job;
        CancelToken cancel;
        QPointer<QObject> context;
    };
    struct FinishedJob {
        Continuation continuation;
        QPointer<QObject> context;
    };

    void takeFinishedJobs();

    kafka::ConnectionProfile m_profile;
    Milliseconds m_requestTimeout;
    std::shared_ptr<std::atomic<bool>> m_stopped;
    std::atomic<int> m_pending{0};
    // The tokens of jobs not finished yet, so the destructor can cancel them all.
    QList<std::weak_ptr<std::atomic<bool>>> m_tokens;
    ThreadMailbox<FinishedJob> m_finishedJobs{this, &AdminTaskRunner::takeFinishedJobs};
    Worker* m_worker = nullptr;
    QThread m_thread;
};

} // namespace groupscope::monitor
