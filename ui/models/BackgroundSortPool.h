#pragma once

#include <QThreadPool>

#include <functional>

namespace groupscope::ui {

// The threads that re-sort a long group list after a refresh (GroupFilterProxyModel), at a
// lower scheduling priority than the GUI thread.
//
// Why: at 100,000 groups that sort (8 ms by lag, BenchGuiTenThousandGroups) runs while the
// GUI thread applies and paints the same refresh. On a two-core machine the slowest refreshes were
// those in which the GUI thread was switched out for milliseconds at a time (2 to 5 involuntary
// context switches, BenchGuiTenThousandGroups timed per step). A thread with a higher nice value
// weighs less with the scheduler: it neither preempts the GUI thread when it wakes nor
// takes an equal share of a core from it, and still gets a core that is idle.
//
// How: under Linux a thread's nice value is its own (setpriority(2) with the thread's id).
// QThread::setPriority changes nothing under Linux's default policy but IdlePriority
// (SCHED_IDLE), which would leave the sort, and with it the refreshed values the list shows
// once it is done, behind any busy process.
class BackgroundSortPool {
public:
    // Runs `task` on one of the pool's threads, lowered first.
    static void start(std::function<void()> task);
    // The pool, for waiting on it (a task started there may post to the GUI thread).
    static QThreadPool& threads();
    // How much higher the nice value of the pool's threads is under Linux than that of the
    // thread that started them (the GUI thread; nice values stop at 19): a tenth of its
    // weight with the scheduler (110 to 1,024 at nice 10 against 0).
    static constexpr int niceSteps = 10;
    static constexpr int highestNice = 19;
};

} // namespace groupscope::ui
