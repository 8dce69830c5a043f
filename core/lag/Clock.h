#pragma once
// The time source of lag rates, time lag, health verdicts and timelines. Code under test
// gets a ManualClock, so nothing waits on real time and every result is deterministic.

#include <QDateTime>

#include <chrono>
#include <cstdint>

namespace groupscope::lag {

class Clock {
public:
    virtual ~Clock() = default;
    // Milliseconds since the Unix epoch: the unit of Kafka's own timestamps.
    virtual int64_t nowMs() const = 0;
    QDateTime nowUtc() const { return QDateTime::fromMSecsSinceEpoch(nowMs(), Qt::UTC); }
};

class SystemClock final : public Clock {
public:
    int64_t nowMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
    // One shared instance is enough: the system clock has no state.
    static const SystemClock& instance() {
        static const SystemClock clock;
        return clock;
    }
};

// The time up to which a pipeline has looked at the cluster: its last poll's, before any
// poll its source clock's. Health verdicts are judged at it: commits are known up to the
// last poll, so a refresh that takes longer than usual (a watched group's lag rebuild, a
// slow broker) must not read as the group having stopped committing.
class ObservedTimeClock final : public Clock {
public:
    explicit ObservedTimeClock(const Clock& source)
        : m_source(source) {}
    int64_t nowMs() const override { return m_observedMs >= 0 ? m_observedMs : m_source.nowMs(); }
    void observedAt(int64_t timeMs) {
        if (timeMs > m_observedMs)
            m_observedMs = timeMs;
    }

private:
    const Clock& m_source;
    int64_t m_observedMs = -1;
};

// A clock that only moves when told to.
class ManualClock final : public Clock {
public:
    explicit ManualClock(int64_t startMs = 1'700'000'000'000)
        : m_nowMs(startMs) {}
    int64_t nowMs() const override { return m_nowMs; }
    void setNowMs(int64_t nowMs) { m_nowMs = nowMs; }
    void advance(std::chrono::milliseconds step) { m_nowMs += step.count(); }

private:
    int64_t m_nowMs;
};

} // namespace groupscope::lag
