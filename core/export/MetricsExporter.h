#pragma once

#include "export/ClusterMetrics.h"
#include "export/DeflatedText.h"
#include "export/MetricsHttpServer.h"
#include "export/ViewRenderer.h"
#include "lag/Clock.h"
#include "monitor/ClusterView.h"

#include <QObject>

namespace groupscope::monitor {
class ClusterMonitor;
}

namespace groupscope::exporter {

// The Prometheus endpoint over the live pipeline: each ClusterView a ClusterMonitor delivers
// is rendered once (ClusterMetrics) and served to every scrape until the next one; the
// exporter's own figures (up, staleness, ...) are rendered per scrape. A failed refresh keeps
// the last good values, with groupscope_exporter_up 0 and the staleness growing, until a
// refresh succeeds again (the monitor keeps retrying at its interval).
//
// Threads: lives on the thread of the ClusterMonitor's owner (the CLI's main thread); the
// views arrive there over the monitor's queued signals and the server answers there. Views
// are rendered on the ViewRenderer's thread, so a scrape never waits for a render; a scrape
// only renders the exporter's own figures. The view's text is kept deflated (at 100,000
// groups on 1,000,000 partitions about 26 MB instead of 700) and deflated a megabyte at a
// time as it is rendered; a scrape that takes gzip shares those bytes with its socket,
// another gets them inflated.
class MetricsExporter : public QObject {
    Q_OBJECT
public:
    MetricsExporter(ExportOptions options, const lag::Clock& clock = lag::SystemClock::instance(),
                    MetricsHttpServer::Options serverOptions = {}, QObject* parent = nullptr);

    // Takes the monitor's views and failures from now on.
    void attach(monitor::ClusterMonitor& monitor);
    bool listen(const QHostAddress& address, quint16 port) {
        return m_server.listen(address, port);
    }
    MetricsHttpServer& server() { return m_server; }

    // What GET /metrics answers now: gzip when the scrape takes it.
    MetricsHttpServer::MetricsBody metricsText(bool acceptsGzip) const;

    // Renders the view on the renderer's thread; the values served change when it is done.
    void observeView(const groupscope::monitor::ClusterView& view);
    // A refresh failed: the last good values stay, served with up 0.
    void observeFailure();

private:
    void takeRendered();

    ExportOptions m_options;
    const lag::Clock& m_clock;
    MetricsHttpServer m_server;
    int64_t m_startedMs;
    DeflatedText m_viewText; // the last good view, rendered and deflated
    std::optional<int64_t> m_lastRefreshMs;
    bool m_up = false;
    qint64 m_refreshes = 0;
    qint64 m_failures = 0;
    int m_groups = 0;
    double m_renderSeconds = 0;
    uint64_t m_viewsObserved = 0;   // views handed to the renderer so far
    uint64_t m_failedAfterView = 0; // m_viewsObserved at the latest failure
    ViewRenderer m_renderer;        // last: its thread stops before the rest goes
};

} // namespace groupscope::exporter
