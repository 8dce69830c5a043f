#include "export/MetricsExporter.h"

#include "monitor/ClusterMonitor.h"

#include <QElapsedTimer>

namespace groupscope::exporter {

MetricsExporter::MetricsExporter(ExportOptions options, const lag::Clock& clock,
                                 MetricsHttpServer::Options serverOptions, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_server([this](bool acceptsGzip) { return metricsText(acceptsGzip); }, serverOptions, this)
    , m_startedMs(clock.nowMs()) {}

void MetricsExporter::attach(monitor::ClusterMonitor& monitor) {
    connect(&monitor, &monitor::ClusterMonitor::viewReady, this, &MetricsExporter::observeView);
    connect(&monitor, &monitor::ClusterMonitor::refreshFailed, this,
            &MetricsExporter::observeFailure);
}

void MetricsExporter::observeView(const monitor::ClusterView& view) {
    if (view.cluster.error.isError()) {
        observeFailure(view.cluster.error.toString());
        return;
    }
    QElapsedTimer timer;
    timer.start();
    m_viewText = {}; // not two views' text at once (a scrape in flight keeps its own share)
    DeflatedTextWriter deflated;
    PrometheusTextWriter writer;
    writer.spillEvery(1024 * 1024, [&deflated](QByteArrayView piece) { deflated.append(piece); });
    writeClusterMetrics(writer, view, m_options, &m_groups);
    writer.take();
    m_viewText = deflated.finish();
    m_renderSeconds = timer.nsecsElapsed() / 1e9;
    m_lastRefreshMs =
        view.cluster.takenAt.isValid() ? view.cluster.takenAt.toMSecsSinceEpoch() : m_clock.nowMs();
    m_up = true;
    ++m_refreshes;
}

void MetricsExporter::observeFailure(const QString& message) {
    m_up = false;
    ++m_failures;
    m_lastFailure = message;
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
    return {{m_viewText.inflated(), ownFigures}, false};
}

} // namespace groupscope::exporter
