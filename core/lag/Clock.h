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
