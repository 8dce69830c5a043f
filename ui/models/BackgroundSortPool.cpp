#include "models/BackgroundSortPool.h"

#include <algorithm>
#include <cerrno>
#include <utility>

#if defined(Q_OS_LINUX)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace groupscope::ui {

namespace {

void lowerThisThreadsPriority() {
#if defined(Q_OS_LINUX)
    // A new thread starts with the nice value of the thread that created it (the GUI
    // thread's, which started the task). Raising one's own needs no privilege; a thread of
    // this pool only ever runs these tasks, so it is never lowered back. A failure leaves
    // the thread as it was.
    thread_local bool lowered = false;
    if (std::exchange(lowered, true))
        return;
    const id_t thread = id_t(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, thread);
    if (errno == 0)
        setpriority(
            PRIO_PROCESS, thread,
            std::min(nice + BackgroundSortPool::niceSteps, BackgroundSortPool::highestNice));
#endif
}

} // namespace

QThreadPool& BackgroundSortPool::threads() {
    static QThreadPool pool;
    return pool;
}

void BackgroundSortPool::start(std::function<void()> task) {
    threads().start([task = std::move(task)] {
        lowerThisThreadsPriority();
        task();
    });
}

} // namespace groupscope::ui
