#include "export/MetricsExporter.h"

#include "monitor/ClusterMonitor.h"

#include <QElapsedTimer>

#include <memory>
#include <utility>

namespace groupscope::exporter {

namespace {

constexpr qsizetype inflatedPieceBytes = 1 << 20;

} // namespace

MetricsExporter::MetricsExporter(ExportOptions options, const lag::Clock& clock,
                                 MetricsHttpServer::Options serverOptions, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_server([this](bool acceptsGzip) { return metricsText(acceptsGzip); }, serverOptions, this)
    , m_startedMs(clock.nowMs())
    , m_renderer(m_options, this, &MetricsExporter::takeRendered) {}

void MetricsExporter::attach(monitor::ClusterMonitor& monitor) {
    connect(&monitor, &monitor::ClusterMonitor::viewReady, this, &MetricsExporter::observeView);
    connect(&monitor, &monitor::ClusterMonitor::refreshFailed, this,
            &MetricsExporter::observeFailure);
}

void MetricsExporter::observeView(const monitor::ClusterView& view) {
    if (view.cluster.error.isError()) {
        observeFailure();
        return;
    }
    m_renderer.render(view, ++m_viewsObserved);
}

void MetricsExporter::takeRendered() {
    for (ViewRenderer::Rendered& rendered : m_renderer.takeRendered()) {
        m_viewText = std::move(rendered.text); // a scrape in flight keeps its own share
        m_groups = rendered.groups;
        m_renderSeconds = rendered.seconds;
        m_lastRefreshMs = rendered.takenAtMs >= 0 ? rendered.takenAtMs : m_clock.nowMs();
        // A view that came before the latest failure is served, but does not make it up.
        if (rendered.number > m_failedAfterView)
            m_up = true;
        ++m_refreshes;
    }
}

void MetricsExporter::observeFailure() {
    m_up = false;
    ++m_failures;
    m_failedAfterView = m_viewsObserved;
}

MetricsHttpServer::MetricsBody MetricsExporter::metricsText(bool acceptsGzip) const {
    QElapsedTimer timer;
    timer.start();
    ExporterStatus status;
    status.up = m_up;
    status.lastRefreshMs = m_lastRefreshMs;
    status.nowMs = m_clock.nowMs();
    status.startedMs = m_startedMs;
    status.refreshes = m_refreshes;
    status.refreshFailures = m_failures;
    status.groups = m_groups;
    status.renderSeconds = m_renderSeconds;
    status.responses = m_server.responsesByStatus();
    status.scrapeSeconds = timer.nsecsElapsed() / 1e9;
    const QByteArray ownFigures = renderExporterMetrics(status, m_options);
    // The view's deflated text is shared with every scrape in flight, not copied.
    if (acceptsGzip)
        return {m_viewText.gzipWith(ownFigures), true};
    // Any other client gets it inflated a megabyte at a time as the socket takes it, then
    // the exporter's own figures.
    auto inflater = std::make_shared<TextInflater>(m_viewText);
    MetricsHttpServer::MetricsBody body;
    body.moreBytes = m_viewText.textSize + ownFigures.size();
    body.more = [inflater, figures = ownFigures]() mutable {
        QByteArray piece = inflater->next(inflatedPieceBytes);
        return piece.isEmpty() ? std::exchange(figures, QByteArray()) : piece;
    };
    return body;
}

} // namespace groupscope::exporter
