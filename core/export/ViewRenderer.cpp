#include "export/ViewRenderer.h"

#include "export/MetricsRender.h"

#include <QElapsedTimer>
#include <QThread>

#include <atomic>

namespace groupscope::exporter {

namespace {

// The writer hands the deflater a piece each time it holds this much: the text of a render
// is never whole in memory.
constexpr qsizetype pieceBytes = 1024 * 1024;

// Threads that write and deflate a view's families at once. Each family is deflated on its
// own and the pieces joined in order; beyond four the families are too few to share out.
int renderThreads() {
    return std::clamp(QThread::idealThreadCount(), 1, 4);
}

DeflatedText deflatedFamily(const MetricsRender& render, qsizetype family) {
    DeflatedTextWriter deflated;
    PrometheusTextWriter writer;
    writer.spillEvery(pieceBytes, [&deflated](QByteArrayView piece) { deflated.append(piece); });
    render.writeFamily(family, writer);
    writer.take();
    return deflated.finish();
}

} // namespace

ViewRenderer::~ViewRenderer() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_waiting.reset();
    }
    m_wake.notify_one();
    m_thread.join();
}

void ViewRenderer::render(monitor::ClusterView view, uint64_t number) {
    {
        const std::lock_guard lock(m_mutex);
        m_waiting.emplace(std::move(view), number);
    }
    m_wake.notify_one();
}

void ViewRenderer::run() {
    for (;;) {
        std::pair<monitor::ClusterView, uint64_t> next;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || m_waiting; });
            if (m_stopping)
                return;
            next = std::move(*m_waiting);
            m_waiting.reset();
        }
        Rendered rendered = renderOne(next.first, next.second);
        next = {}; // the view goes before the text is handed over, not after
        m_rendered.post(std::move(rendered));
        // The previous poll's rows and this view are free by now: without this, glibc keeps
        // their pages between the live allocations of the next polls (an exporter at
        // 10,000 groups stayed at 305 MB resident, 205 MB with it).
        monitor::returnFreedPages();
    }
}

ViewRenderer::Rendered ViewRenderer::renderOne(const monitor::ClusterView& view,
                                               uint64_t number) const {
    QElapsedTimer timer;
    timer.start();
    Rendered rendered;
    rendered.number = number;
    const MetricsRender render(view, m_options);
    // Writing and deflating 700 MB of text at 100,000 groups took 2.4 s on one core, half of
    // it zlib's (BenchExporterScrape, perf; deflating is ISA-L's now, a fifth of that): the
    // families are shared out to threads, each taking the next as it finishes one.
    std::vector<DeflatedText> families(size_t(render.familyCount()));
    std::atomic<qsizetype> nextFamily = 0;
    const auto writeFamilies = [&] {
        for (qsizetype family = nextFamily++; family < render.familyCount(); family = nextFamily++)
            families[size_t(family)] = deflatedFamily(render, family);
    };
    {
        std::vector<std::jthread> helpers;
        for (int i = 1; i < std::min<qsizetype>(renderThreads(), render.familyCount()); ++i)
            helpers.emplace_back(writeFamilies);
        writeFamilies();
    } // the helpers are joined here
    for (DeflatedText& family : families)
        rendered.text.append(std::move(family));
    rendered.groups = render.groupCount();
    rendered.seconds = double(timer.nsecsElapsed()) / 1e9;
    if (view.cluster.takenAt.isValid())
        rendered.takenAtMs = view.cluster.takenAt.toMSecsSinceEpoch();
    return rendered;
}

} // namespace groupscope::exporter
