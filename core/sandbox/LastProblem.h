#pragma once

#include <QMutex>
#include <QMutexLocker>
#include <QString>

#include <chrono>

namespace groupscope::sandbox {

// The most recent problem a sandbox client ran into (broker down, delivery failed), kept
// for the status line: the sandbox keeps running through transient trouble and says so,
// and stops saying so once the trouble is over.
class LastProblem {
public:
    using Clock = std::chrono::steady_clock;

    void record(const QString& problem) {
        QMutexLocker lock(&m_mutex);
        m_problem = problem;
        m_recordedAt = Clock::now();
    }
    // The last problem if it is at most `maxAge` old, else empty.
    QString recent(Clock::duration maxAge) const {
        QMutexLocker lock(&m_mutex);
        if (m_problem.isEmpty() || Clock::now() - m_recordedAt > maxAge)
            return {};
        return m_problem;
    }

private:
    mutable QMutex m_mutex;
    QString m_problem;
    Clock::time_point m_recordedAt;
};

} // namespace groupscope::sandbox
