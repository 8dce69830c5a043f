#pragma once

#include <QObject>

#include <mutex>
#include <utility>
#include <vector>

namespace groupscope::monitor {

// The signal a ThreadMailbox rings after each post; it carries nothing.
class Doorbell : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
signals:
    void rung();
};

// Hands values from one thread to a QObject that lives on another, in the order posted:
// the monitor's worker and the GUI thread talk through these.
//
// Why not QMetaObject::invokeMethod with a lambda that captures the value: Qt orders the
// posted call after the post with its own futex-based mutexes, inside a Qt library that is
// not instrumented, so ThreadSanitizer cannot see that order and reports every capture the
// receiver reads as a race, now and then (the tsan build is how these threads are checked).
// Here the values pass under a std::mutex, which TSan sees, and the queued call carries
// nothing: its slot is connected before another thread can post.
template <typename Value> class ThreadMailbox {
public:
    // After each post, `slot` of `receiver` runs on the receiver's thread; it calls
    // takeAll(). Construct on the receiver's thread. The doorbell is the receiver's child
    // and goes with it, so nothing may post once the receiver is being destroyed.
    template <typename Receiver, typename Slot>
    ThreadMailbox(Receiver* receiver, Slot slot)
        : m_doorbell(new Doorbell(receiver)) {
        QObject::connect(m_doorbell, &Doorbell::rung, receiver, slot, Qt::QueuedConnection);
    }
    // Takes the lock once more, so the last post from another thread is ordered before the
    // values are freed, also as ThreadSanitizer sees it.
    ~ThreadMailbox() { const std::lock_guard lock(m_mutex); }
    ThreadMailbox(const ThreadMailbox&) = delete;
    ThreadMailbox& operator=(const ThreadMailbox&) = delete;

    // Thread-safe.
    void post(Value value) {
        {
            const std::lock_guard lock(m_mutex);
            m_values.push_back(std::move(value));
        }
        emit m_doorbell->rung();
    }

    // Thread-safe; the values posted since the last call, oldest first.
    std::vector<Value> takeAll() {
        const std::lock_guard lock(m_mutex);
        return std::exchange(m_values, {});
    }

private:
    std::mutex m_mutex;
    std::vector<Value> m_values;
    Doorbell* const m_doorbell; // owned by the receiver
};

} // namespace groupscope::monitor
