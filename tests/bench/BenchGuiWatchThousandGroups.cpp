// Memory of the group browser watching 1,000 groups for an hour: the live pipeline's
// computing half (ClusterViewBuilder: one GroupMonitor, lean for every group: time lag,
// health, sparkline) and the list's model, proxy and view, fed one cluster-wide poll every
// 2 s of simulated time (1,800 polls), as the application does. Prints resident memory at
// the start, half way and the end against the goals (under 300 MB for the whole
// application; flat once the windows are full: under 5 MB of growth over the second half
// hour) and the GUI-thread time per poll; the peer in the same run is the same list without
// the pipeline's trends. Figures only; it does not pass or fail on them.

#include "BenchFigures.h"
#include "WholePoll.h"
#include "delegates/LagSparklineDelegate.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "monitor/ClusterViewBuilder.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTableView>

#include <cstdio>

using namespace groupscope;
using bench::megabytes;
using bench::percentile;
using bench::residentKilobytes;

namespace {

constexpr int groupCount = 1000;
constexpr int topicsPerGroup = 3;
constexpr int partitionsPerTopic = 4;
constexpr int polls = 1800; // an hour at the default 2 s interval
constexpr auto pollInterval = std::chrono::milliseconds(2000);
constexpr double goalMegabytes = 300;
constexpr double goalSecondHalfGrowthMegabytes = 5;

// Names are made once: formatting 12,000 strings per poll would measure QString::arg.
struct Names {
    QStringList groups;
    QList<QStringList> topics; // per group
    Names() {
        for (int g = 0; g < groupCount; ++g) {
            groups.append(QStringLiteral("service-%1").arg(g, 4, 10, QLatin1Char('0')));
            QStringList perGroup;
            for (int t = 0; t < topicsPerGroup; ++t)
                perGroup.append(QStringLiteral("topic-%1-%2").arg(g).arg(t));
            topics.append(perGroup);
        }
    }
};

monitor::ClusterSnapshot poll(int tick) {
    static const Names names;
    monitor::ClusterSnapshot snapshot;
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    snapshot.groups.reserve(groupCount);
    for (int g = 0; g < groupCount; ++g) {
        monitor::GroupSnapshot group;
        group.description.groupId = names.groups.at(g);
        group.description.state = kafka::GroupState::Stable;
        group.description.protocolType = QStringLiteral("consumer");
        group.description.partitionAssignor = QStringLiteral("range");
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("member-%1").arg(g);
        member.clientId = QStringLiteral("client-%1").arg(g);
        group.description.members.append(member);
        for (int t = 0; t < topicsPerGroup; ++t)
            for (int p = 0; p < partitionsPerTopic; ++p) {
                monitor::PartitionSnapshot row;
                row.topicPartition = {names.topics.at(g).at(t), p};
                const int64_t end = int64_t(tick) * (10 + g % 7) + p;
                row.logStartOffset = 0;
                row.logEndOffset = end;
                // Some groups keep up, some fall behind, some stop.
                const int64_t behind = g % 3 == 0 ? 0 : g % 3 == 1 ? (tick % 50) * 3 : tick * 2;
                row.committedOffset = std::max<int64_t>(0, end - behind);
                row.lag = end - *row.committedOffset;
                group.partitions.append(row);
            }
        snapshot.groups.append(std::move(group));
    }
    return snapshot;
}

struct WatchFigures {
    double startMegabytes = 0;
    double halfMegabytes = 0; // after half the polls: every window has long been full
    double endMegabytes = 0;
    QList<double> guiMs;   // applying a poll to the model, repaint included
    QList<double> trendMs; // the pipeline's work (on its worker thread in the app)
};

WatchFigures watch(bool withTrends) {
    WatchFigures figures;
    lag::ManualClock clock;
    monitor::ClusterViewBuilder pipeline(clock);
    ui::GroupListModel model;
    ui::GroupFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QTableView view;
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.setItemDelegateForColumn(
        ui::GroupListModel::LagTrendColumn,
        new ui::LagSparklineDelegate(ui::GroupListModel::LagTrendRole, &view));
    view.resize(1400, 900);
    view.show();
    QApplication::processEvents();
    figures.startMegabytes = megabytes(double(residentKilobytes()));
    for (int tick = 0; tick < polls; ++tick) {
        clock.advance(pollInterval);
        monitor::ClusterSnapshot snapshot = poll(tick);
        QElapsedTimer timer;
        timer.start();
        if (withTrends) {
            test::observeWholePoll(pipeline, snapshot.groups, true);
            snapshot = pipeline.view().cluster;
        }
        figures.trendMs.append(double(timer.nsecsElapsed()) / 1e6);
        timer.restart();
        model.applySummaries(monitor::summariesOf(snapshot.groups));
        // Painting every poll would dominate the run; every 30th is enough to include it.
        if (tick % 30 == 0)
            view.repaint();
        figures.guiMs.append(double(timer.nsecsElapsed()) / 1e6);
        if (tick == polls / 2 - 1)
            figures.halfMegabytes = megabytes(double(residentKilobytes()));
    }
    figures.endMegabytes = megabytes(double(residentKilobytes()));
    return figures;
}

void print(const char* name, const WatchFigures& figures) {
    std::printf("  %-26s RSS %6.1f MB -> %6.1f MB (half way) -> %6.1f MB; GUI per poll median "
                "%6.2f ms, p99 %6.2f ms; pipeline median %6.2f ms\n",
                name, figures.startMegabytes, figures.halfMegabytes, figures.endMegabytes,
                percentile(figures.guiMs, 50), percentile(figures.guiMs, 99),
                percentile(figures.trendMs, 50));
}

// Each variant runs in a process of its own, so one's freed memory cannot hide the other's.
int runVariant(bool withTrends) {
    const WatchFigures figures = watch(withTrends);
    print(withTrends ? "list + trends (the app)" : "list only (peer)", figures);
    std::printf("RESULT %.3f %.3f %.3f\n", figures.startMegabytes, figures.endMegabytes,
                figures.halfMegabytes);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList arguments = QApplication::arguments();
    if (arguments.size() == 3 && arguments.at(1) == QStringLiteral("--variant"))
        return runVariant(arguments.at(2) == QStringLiteral("trends"));

    std::printf("Group browser watching %d groups (%d partitions each) for 1 h: %d polls, "
                "simulated time, each variant in its own process\n",
                groupCount, topicsPerGroup * partitionsPerTopic, polls);
    std::fflush(stdout);
    double growth[2] = {0, 0};
    double secondHalf[2] = {0, 0};
    double end[2] = {0, 0};
    for (int variant = 0; variant < 2; ++variant) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QApplication::applicationFilePath(),
                    {QStringLiteral("--variant"),
                     variant ? QStringLiteral("trends") : QStringLiteral("plain")});
        if (!child.waitForFinished(-1) || child.exitCode() != 0) {
            std::printf("  variant %d failed: %s\n", variant, qPrintable(child.errorString()));
            return 1;
        }
        for (const QByteArray& line : child.readAllStandardOutput().split('\n')) {
            if (line.startsWith("RESULT ")) {
                const QList<QByteArray> fields = line.split(' ');
                growth[variant] = fields.at(2).toDouble() - fields.at(1).toDouble();
                end[variant] = fields.at(2).toDouble();
                secondHalf[variant] = fields.at(2).toDouble() - fields.at(3).toDouble();
            } else if (!line.isEmpty()) {
                std::printf("%s\n", line.constData());
            }
        }
    }
    std::printf("  RSS at the end: %.1f MB (goal under %.0f MB) %s\n", end[1], goalMegabytes,
                end[1] < goalMegabytes ? "MEETS GOAL" : "OVER GOAL");
    std::printf("  growth over the hour: %.1f MB with trends, %.1f MB without (%.2fx)\n", growth[1],
                growth[0], growth[1] / std::max(growth[0], 0.1));
    std::printf("  growth over the second half hour: %.1f MB with trends, %.1f MB without "
                "(goal under %.0f MB) %s\n",
                secondHalf[1], secondHalf[0], goalSecondHalfGrowthMegabytes,
                secondHalf[1] < goalSecondHalfGrowthMegabytes ? "MEETS GOAL" : "OVER GOAL");
    return 0;
}
