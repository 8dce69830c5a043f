// The group detail with 10,000 partitions, refreshed every second as the live pipeline
// would (one ClusterView: the group's poll and its monitor snapshot with time lags):
// GUI-thread time per refresh (the models' diff plus the repaint it causes), median and
// p99 against the goal of 16 ms, and the longest event-loop stall while refreshes arrive
// (goal: none over 50 ms). The peer, measured in the same run, is the simple way: a
// QStandardItemModel refilled on every refresh behind the same kind of view.
// Figures only; it does not pass or fail on them.

#include "BenchFigures.h"
#include "GuiRefreshMeasure.h"
#include "controllers/ResetController.h"
#include "models/PartitionTableModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/LagChartWidget.h"
#include "widgets/OffsetResetPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <functional>

using namespace groupscope;
using bench::percentile;
using bench::printRefreshFigures;
using bench::RefreshFigures;
using bench::Repaint;

namespace {

constexpr int topics = 100;
constexpr int partitionsPerTopic = 100;
constexpr int refreshes = 30;
constexpr auto refreshInterval = std::chrono::milliseconds(1000);

// A group of 10,000 partitions whose log ends and commits move on every refresh, the way
// a busy group's do: most lag cells change each time.
monitor::GroupSnapshot busyGroup(int refresh) {
    monitor::GroupSnapshot group;
    group.description.groupId = QStringLiteral("bench-group");
    group.description.state = kafka::GroupState::Stable;
    for (int m = 0; m < 20; ++m) {
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("consumer-%1-uuid").arg(m);
        member.clientId = QStringLiteral("client-%1").arg(m);
        member.host = QStringLiteral("/10.0.0.%1").arg(m);
        group.description.members.append(member);
    }
    // One owner per member, shared by its rows, as GroupInspector makes them.
    QList<monitor::PartitionOwner> owners;
    for (const kafka::MemberDescription& member : std::as_const(group.description.members))
        owners.append(monitor::PartitionOwner(member));
    group.partitions.reserve(topics * partitionsPerTopic);
    for (int t = 0; t < topics; ++t)
        for (int p = 0; p < partitionsPerTopic; ++p) {
            monitor::PartitionSnapshot row;
            row.topicPartition = {QStringLiteral("topic-%1").arg(t, 3, 10, QLatin1Char('0')), p};
            const int64_t end = 1'000'000 + int64_t(refresh) * 500 + (t * 31 + p * 7) % 400;
            row.logStartOffset = 0;
            row.logEndOffset = end;
            row.committedOffset = end - (refresh * 13 + p * 17 + t) % 900;
            row.lag = row.logEndOffset - *row.committedOffset;
            const int member = (t * partitionsPerTopic + p) % 20;
            row.owner = owners.at(member);
            group.partitions.append(row);
        }
    return group;
}

// The pipeline's view of that refresh: the poll as the group's row, and the open group's
// monitor snapshot with a time lag per partition and a commit history.
monitor::ClusterView busyView(int refresh) {
    monitor::ClusterView view;
    view.cluster.groups.append(busyGroup(refresh));
    const monitor::GroupSnapshot& group = view.cluster.groups.first();
    monitor::GroupMonitorSnapshot detail;
    detail.group = group.groupId();
    detail.exists = true;
    detail.takenAtMs = 1'700'000'000'000 + int64_t(refresh) * 1000;
    detail.partitions.reserve(group.partitions.size());
    for (const monitor::PartitionSnapshot& partition : group.partitions) {
        monitor::MonitoredPartition row;
        row.setPosition(partition);
        row.timeLag = {lag::TimeLag::Status::Estimated, double(*partition.lag) / 50.0, false};
        detail.partitions.append(row);
        detail.totalLag += *partition.lag;
    }
    for (int c = 0; c < 2000; ++c) // the commit history's bound
        detail.commits.append({group.partitions.at((refresh * 2000 + c) % 10'000).topicPartition,
                               1000,
                               detail.takenAtMs - 2000 + c,
                               {},
                               false});
    view.watched.append(detail);
    return view;
}

void fillPlainModel(QStandardItemModel& model, const monitor::GroupSnapshot& group) {
    model.clear();
    model.setHorizontalHeaderLabels({QStringLiteral("Topic"), QStringLiteral("Partition"),
                                     QStringLiteral("Committed"), QStringLiteral("Log end"),
                                     QStringLiteral("Lag"), QStringLiteral("Owner")});
    model.setRowCount(int(group.partitions.size()));
    int row = 0;
    for (const auto& partition : group.partitions) {
        model.setItem(row, 0, new QStandardItem(partition.topicPartition.topic));
        model.setItem(row, 1,
                      new QStandardItem(QString::number(partition.topicPartition.partition)));
        model.setItem(row, 2, new QStandardItem(QString::number(*partition.committedOffset)));
        model.setItem(row, 3, new QStandardItem(QString::number(partition.logEndOffset)));
        model.setItem(row, 4, new QStandardItem(QString::number(*partition.lag)));
        model.setItem(row, 5, new QStandardItem(partition.clientId()));
        ++row;
    }
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    ui::ResetController controller;
    ui::GroupDetailWidget detail(&controller);
    detail.resize(1400, 900);
    detail.show();
    detail.openGroup(QStringLiteral("bench-group"));
    detail.applyView(busyView(0));
    QApplication::processEvents();
    monitor::ClusterView view;
    const auto prepareView = [&](int refresh) { view = busyView(refresh); };
    const auto applyView = [&] { detail.applyView(view); };
    const bench::RefreshSchedule schedule{refreshes, refreshInterval, std::chrono::milliseconds(5)};
    const RefreshFigures ours =
        measureRefreshes(detail, Repaint::CausedByRefresh, prepareView, applyView, schedule);
    const RefreshFigures oursWholeWindow =
        measureRefreshes(detail, Repaint::WholeWindow, prepareView, applyView, schedule);

    // Where the time goes: each of the two 10,000-row tables on its own, no paint.
    QList<double> partitionsMs;
    QList<double> offsetsMs;
    QList<double> chartMs;
    for (int refresh = refreshes + 1; refresh <= refreshes + 20; ++refresh) {
        const monitor::ClusterView view = busyView(refresh);
        const monitor::GroupSnapshot& group = view.cluster.groups.first();
        QElapsedTimer clock;
        clock.start();
        detail.partitionModel()->applySnapshot(group, &view.watched.first());
        partitionsMs.append(double(clock.nsecsElapsed()) / 1e6);
        clock.restart();
        detail.offsetPanel()->applySnapshot(group);
        offsetsMs.append(double(clock.nsecsElapsed()) / 1e6);
        clock.restart();
        detail.lagChart()->appendSnapshot(view.watched.first());
        chartMs.append(double(clock.nsecsElapsed()) / 1e6);
    }

    QTableView plainView;
    QStandardItemModel plainModel;
    plainView.setModel(&plainModel);
    plainView.setSortingEnabled(true);
    plainView.resize(1400, 900);
    plainView.show();
    fillPlainModel(plainModel, busyGroup(0));
    QApplication::processEvents();
    monitor::GroupSnapshot plainGroup;
    const RefreshFigures plain = measureRefreshes(
        plainView, Repaint::CausedByRefresh, [&](int refresh) { plainGroup = busyGroup(refresh); },
        [&] { fillPlainModel(plainModel, plainGroup); }, schedule);

    std::printf("Group detail refresh: %d partitions, %d refreshes %lld ms apart, offscreen\n",
                topics * partitionsPerTopic, refreshes,
                static_cast<long long>(refreshInterval.count()));
    std::printf("  (the synthetic snapshot is built before each refresh's clock starts)\n");
    printRefreshFigures("GroupDetailWidget (diff models)", ours);
    printRefreshFigures("  the same, whole window repainted", oursWholeWindow);
    printRefreshFigures("QStandardItemModel refilled", plain);
    std::printf("  of which, per table: Partitions median %.2f ms, Reset offsets median %.2f ms, "
                "Lag chart median %.2f ms\n",
                percentile(partitionsMs, 50), percentile(offsetsMs, 50), percentile(chartMs, 50));
    const double oursP99 = percentile(ours.refreshMs, 99);
    const double plainP99 = percentile(plain.refreshMs, 99);
    std::printf("  p99: %.2f ms (goal under 16 ms) %s\n", oursP99,
                oursP99 < 16 ? "MEETS GOAL" : "OVER GOAL");
    std::printf("  longest stall: %.2f ms (goal under 50 ms) %s\n", ours.longestStallMs,
                ours.longestStallMs < 50 ? "MEETS GOAL" : "OVER GOAL");
    std::printf("  ratio plain / ours (p99): %.2fx\n", plainP99 / std::max(oursP99, 0.001));
    return 0;
}
