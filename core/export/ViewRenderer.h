#pragma once

#include "export/ClusterMetrics.h"
#include "export/DeflatedText.h"
#include "monitor/ClusterView.h"
#include "monitor/ThreadMailbox.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace groupscope::exporter {

// Renders the exporter's views on a thread of its own, so that the thread that answers
// scrapes never waits for a render (seconds at 100,000 groups). One view at a time: a view
// that arrives while another renders waits, and a newer one replaces it (the monitor's
// refreshes can come faster than a render at that size; only the newest counts). A render
// writes and deflates the view's families on as many threads as there are cores (up to
// four), each family apart, and joins them in order (MetricsRender, DeflatedText::append).
class ViewRenderer {
public:
    struct Rendered {
        uint64_t number = 0; // the number render() was given
        DeflatedText text;
        int groups = 0;         // groups exported
        double seconds = 0;     // rendering and deflating
        int64_t takenAtMs = -1; // when the view's values were polled; -1 not known
    };

    // After each render, `slot` of `receiver` runs on the receiver's thread; it calls
    // takeRendered(). Construct on the receiver's thread.
    template <typename Receiver, typename Slot>
    ViewRenderer(ExportOptions options, Receiver* receiver, Slot slot)
        : m_options(std::move(options))
        , m_rendered(receiver, slot)
        , m_thread([this] { run(); }) {}
    // Waits for a render under way (it is not cut short) and drops a waiting view.
    ~ViewRenderer();
    ViewRenderer(const ViewRenderer&) = delete;
    ViewRenderer& operator=(const ViewRenderer&) = delete;

    void render(monitor::ClusterView view, uint64_t number);
    std::vector<Rendered> takeRendered() { return m_rendered.takeAll(); }

private:
    void run();
    Rendered renderOne(const monitor::ClusterView& view, uint64_t number) const;

    const ExportOptions m_options;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<std::pair<monitor::ClusterView, uint64_t>> m_waiting; // under m_mutex
    bool m_stopping = false;                                            // under m_mutex
    monitor::ThreadMailbox<Rendered> m_rendered;
    std::thread m_thread; // last: it starts once everything above is built
};

} // namespace groupscope::exporter
