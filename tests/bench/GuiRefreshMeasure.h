#pragma once
// How the GUI benchmarks time a refresh: the event loop runs while refreshes arrive one
// interval apart, each refresh's data is prepared untimed (the live pipeline builds it on
// its own thread), then the clock runs while it is handed to the GUI and the window repaints
// what it dirtied. A heartbeat timer measures the loop's responsiveness: the longest gap
// between two beats, minus the beat's interval and the untimed preparing, is the longest
// the user would have waited for the window to react.

#include "BenchFigures.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <numeric>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace groupscope::bench {

struct RefreshFigures {
    QList<double> refreshMs;  // GUI-thread time of each refresh, repaint included
    QList<double> applyMs;    // of which handing the data over
    QList<double> paintMs;    // of which the repaint
    QList<double> deferredMs; // of which what pool threads posted back, and its repaint
    // How often the GUI thread was switched out against its will while a refresh was timed
    // (another thread took its core): a slow refresh with several was slowed from outside.
    QList<long> switchedOut;
    double longestStallMs = 0;
};

// The calling thread's involuntary context switches so far (Linux; 0 elsewhere).
inline long involuntarySwitchesOfThisThread() {
#if defined(__linux__)
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_nivcsw;
#else
    return 0;
#endif
}

// What is repainted after each refresh: what the refresh dirtied (the posted update
// request, as the event loop would paint it next), or the whole window (an upper bound:
// the tab bar, header and frames too, which a refresh does not touch).
enum class Repaint { CausedByRefresh, WholeWindow };

struct RefreshSchedule {
    int refreshes = 30;
    std::chrono::milliseconds interval{1000};
    std::chrono::milliseconds heartbeat{5};
};

// `prepare(n)` builds refresh n's data (n from 1), untimed; `apply()` hands it to the GUI.
// `awaitDeferred()`, when given, waits untimed for what the refresh left to pool threads
// (a long group list's re-sort); what they then post back to the GUI thread, and the
// repaint it causes, count in the refresh's time.
inline RefreshFigures measureRefreshes(QWidget& window, Repaint repaint,
                                       const std::function<void(int)>& prepare,
                                       const std::function<void()>& apply,
                                       RefreshSchedule schedule = {},
                                       const std::function<void()>& awaitDeferred = {}) {
    RefreshFigures figures;
    QEventLoop loop;
    QElapsedTimer sinceLastBeat;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(schedule.heartbeat);
    qint64 preparingNs = 0; // since the last beat
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const double gapMs = double(sinceLastBeat.nsecsElapsed() - preparingNs) / 1e6;
        figures.longestStallMs =
            std::max(figures.longestStallMs, gapMs - double(schedule.heartbeat.count()));
        sinceLastBeat.restart();
        preparingNs = 0;
    });
    int done = 0;
    QTimer refresher;
    refresher.setInterval(schedule.interval);
    QObject::connect(&refresher, &QTimer::timeout, [&] {
        QElapsedTimer clock;
        clock.start();
        prepare(done + 1);
        preparingNs += clock.nsecsElapsed();
        clock.restart();
        long switches = involuntarySwitchesOfThisThread();
        apply();
        const qint64 applied = clock.nsecsElapsed();
        const auto paint = [&] {
            if (repaint == Repaint::WholeWindow)
                window.repaint();
            else
                QCoreApplication::sendPostedEvents(&window, QEvent::UpdateRequest);
        };
        paint();
        qint64 timedNs = clock.nsecsElapsed();
        switches = involuntarySwitchesOfThisThread() - switches;
        figures.applyMs.append(double(applied) / 1e6);
        figures.paintMs.append(double(timedNs - applied) / 1e6);
        figures.deferredMs.append(0);
        if (awaitDeferred) {
            clock.restart();
            awaitDeferred();
            preparingNs += clock.nsecsElapsed();
            clock.restart();
            const long before = involuntarySwitchesOfThisThread();
            QCoreApplication::sendPostedEvents();
            paint();
            figures.deferredMs.last() = double(clock.nsecsElapsed()) / 1e6;
            timedNs += clock.nsecsElapsed();
            switches += involuntarySwitchesOfThisThread() - before;
        }
        figures.refreshMs.append(double(timedNs) / 1e6);
        figures.switchedOut.append(switches);
        if (++done == schedule.refreshes)
            loop.quit();
    });
    sinceLastBeat.start();
    heartbeat.start();
    refresher.start();
    loop.exec();
    return figures;
}

inline void printRefreshFigures(const char* name, const RefreshFigures& figures) {
    std::printf("  %-40s median %7.2f ms, p99 %7.2f ms, slowest %7.2f ms (paint median %6.2f "
                "ms), longest stall %7.2f ms\n",
                name, percentile(figures.refreshMs, 50), percentile(figures.refreshMs, 99),
                percentile(figures.refreshMs, 100), percentile(figures.paintMs, 50),
                figures.longestStallMs);
    // Where the slowest refresh's time went, to tell a slow step from a slow moment.
    const auto slowest = std::max_element(figures.refreshMs.cbegin(), figures.refreshMs.cend());
    if (slowest == figures.refreshMs.cend())
        return;
    const qsizetype at = slowest - figures.refreshMs.cbegin();
    std::printf("  %-40s the slowest (refresh %lld): apply %.2f ms, repaint %.2f ms, after the "
                "pool's work %.2f ms; GUI thread switched out %ld time(s) in it, %ld in all %lld\n",
                "", static_cast<long long>(at + 1), figures.applyMs.at(at), figures.paintMs.at(at),
                figures.deferredMs.at(at), figures.switchedOut.at(at),
                std::accumulate(figures.switchedOut.cbegin(), figures.switchedOut.cend(), 0L),
                static_cast<long long>(figures.refreshMs.size()));
}

} // namespace groupscope::bench
