// What a Prometheus scrape of the exporter costs at scale: N groups (GROUPSCOPE_BENCH_GROUPS,
// default 1,000 and 10,000) of 10 partitions each, with members, fed to the live pipeline's
// ClusterViewBuilder for a few polls; then the time to render one refresh's values, the size
// of the text, and whole scrapes by curl over loopback through the exporter's HTTP server (gzip,
// as Prometheus asks, and plain). Prints
// figures; it does not pass or fail on them.

#include "BenchFigures.h"
#include "MetricsBodyText.h"
#include "WholePoll.h"
#include "export/MetricsExporter.h"
#include "monitor/ClusterViewBuilder.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <cstdio>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

constexpr int partitionsPerGroup = 10;
constexpr int membersPerGroup = 5;

monitor::GroupSnapshot makeGroup(int g, int poll) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId =
        QStringLiteral("service-%1-consumers").arg(g, 5, 10, QLatin1Char('0'));
    snapshot.description.state = kafka::GroupState::Stable;
    snapshot.description.type = kafka::GroupType::Classic;
    snapshot.description.protocolType = QStringLiteral("consumer");
    for (int m = 0; m < membersPerGroup; ++m) {
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("consumer-%1-%2-0123456789abcdef").arg(g).arg(m);
        member.clientId = QStringLiteral("consumer-%1-%2").arg(g).arg(m);
        member.host = QStringLiteral("/10.0.%1.%2").arg(g % 250).arg(m);
        snapshot.description.members.append(member);
    }
    // One owner per member, shared by its rows, as GroupInspector makes them.
    QList<monitor::PartitionOwner> owners;
    for (const kafka::MemberDescription& member : std::as_const(snapshot.description.members))
        owners.append(monitor::PartitionOwner(member));
    const QString topic = QStringLiteral("topic-%1").arg(g / 10);
    for (int p = 0; p < partitionsPerGroup; ++p) {
        monitor::PartitionSnapshot partition;
        partition.topicPartition = {topic, p};
        partition.owner = owners[p % membersPerGroup];
        partition.logStartOffset = 0;
        partition.logEndOffset = 100'000 + 100 * poll;
        if (p != 0) { // one partition per group has no commit
            partition.committedOffset = 99'000 + 90 * poll;
            partition.lag = partition.logEndOffset - *partition.committedOffset;
        }
        snapshot.partitions.append(partition);
    }
    return snapshot;
}

// One scrape over loopback by curl from its own process, in milliseconds (curl's
// time_total); -1 when it failed. `gzip`: as Prometheus asks (Accept-Encoding: gzip, the
// answer inflated by curl); otherwise plain text. `bytes` receives the bytes sent. The
// exporter answers on this process's event loop meanwhile.
double scrape(quint16 port, bool gzip, qsizetype* bytes) {
    QStringList arguments{QStringLiteral("-sS"),
                          QStringLiteral("-o"),
                          QStringLiteral("/dev/null"),
                          QStringLiteral("-w"),
                          QStringLiteral("%{http_code} %{size_download} %{time_total}"),
                          QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)};
    if (gzip)
        arguments.prepend(QStringLiteral("--compressed"));
    QProcess curl;
    curl.start(QStringLiteral("curl"), arguments);
    if (!QTest::qWaitFor([&] { return curl.state() == QProcess::NotRunning; }, 120'000))
        return -1;
    const QList<QByteArray> figures = curl.readAllStandardOutput().split(' ');
    if (figures.size() != 3 || figures[0] != "200")
        return -1;
    *bytes = figures[1].toLongLong();
    return figures[2].toDouble() * 1000;
}

} // namespace

class BenchExporterScrape : public QObject {
    Q_OBJECT

private slots:
    void scrapes_data() {
        QTest::addColumn<int>("groups");
        if (const int groups = qEnvironmentVariableIntValue("GROUPSCOPE_BENCH_GROUPS");
            groups > 0) {
            QTest::newRow(qPrintable(QString::number(groups))) << groups;
            return;
        }
        QTest::newRow("1000") << 1000;
        QTest::newRow("10000") << 10000;
    }

    void scrapes() {
        QFETCH(int, groups);
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        for (int poll = 0; poll < 5; ++poll) {
            clock.advance(2s);
            QList<monitor::GroupSnapshot> snapshots;
            snapshots.reserve(groups);
            for (int g = 0; g < groups; ++g)
                snapshots.append(makeGroup(g, poll));
            test::observeWholePoll(builder, snapshots, true);
        }
        QElapsedTimer timer;
        timer.start();
        const monitor::ClusterView view = builder.view();
        const double viewMs = timer.nsecsElapsed() / 1e6;

        exporter::ExportOptions options;
        options.clusterName = QStringLiteral("bench");
        exporter::MetricsExporter metrics(options, clock);
        metrics.observeView(view);
        // Rendered on the exporter's renderer thread; its own figure says how long it took.
        QByteArray ownFigures;
        QVERIFY(QTest::qWaitFor(
            [&] {
                // A plain body ends with the exporter's own figures.
                const QByteArray body = test::metricsBodyText(metrics.metricsText(false));
                ownFigures = body.mid(body.indexOf("# HELP groupscope_exporter_"));
                return ownFigures.contains("groupscope_exporter_refreshes_total{cluster_name="
                                           "\"bench\"} 1\n");
            },
            300'000));
        const QRegularExpression renderLine(
            QStringLiteral("groupscope_exporter_render_duration_seconds\\{[^}]*\\} (\\S+)"));
        const double renderMs =
            renderLine.match(QString::fromUtf8(ownFigures)).captured(1).toDouble() * 1000;
        QVERIFY(metrics.listen(QHostAddress::LocalHost, 0));
        QList<double> gzipMs;
        QList<double> plainMs;
        qsizetype gzipBytes = 0;
        qsizetype plainBytes = 0;
        for (int i = 0; i < 7; ++i) {
            const double gzip = scrape(metrics.server().serverPort(), true, &gzipBytes);
            const double plain = scrape(metrics.server().serverPort(), false, &plainBytes);
            QVERIFY(gzip >= 0 && plain >= 0);
            gzipMs.append(gzip);
            plainMs.append(plain);
        }
        // The next refresh's render runs on its own thread: a scrape meanwhile is answered
        // from the values before it.
        metrics.observeView(view);
        const double duringRenderMs = scrape(metrics.server().serverPort(), true, &gzipBytes);
        QVERIFY(duringRenderMs >= 0);
        std::printf(
            "exporter at %d groups x %d partitions (%d rows): view %.1f ms, render %.1f ms "
            "(once per refresh, deflated as it goes), text %.1f MB sent as %.1f MB of gzip; "
            "scrape by curl over loopback as Prometheus asks (gzip) median %.1f ms, max %.1f ms "
            "(%.1f ms while the next refresh renders); plain text median %.1f ms, max %.1f ms "
            "(%.1fx); RSS %.0f MB\n",
            groups, partitionsPerGroup, groups * partitionsPerGroup, viewMs, renderMs,
            plainBytes / 1e6, gzipBytes / 1e6, bench::percentile(gzipMs, 50),
            bench::percentile(gzipMs, 100), duringRenderMs, bench::percentile(plainMs, 50),
            bench::percentile(plainMs, 100),
            bench::percentile(plainMs, 50) / bench::percentile(gzipMs, 50),
            bench::megabytes(double(bench::residentKilobytes())));
    }
};

QTEST_GUILESS_MAIN(BenchExporterScrape)
#include "BenchExporterScrape.moc"
