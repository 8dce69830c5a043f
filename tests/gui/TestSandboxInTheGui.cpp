// The GUI against the sandbox workload on the real broker, as a user meets it: the group
// browser lists the four sandbox groups with the lag Kafka's own tool reports, and opening
// `shipping` shows its generations appearing on the rebalance timeline as members come
// and go.

#include "TestBroker.h"

#include "models/GroupListModel.h"
#include "sandbox/SandboxWorkload.h"
#include "widgets/GroupDetailWidget.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QSet>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupListModel;
using groupscope::ui::MainWindow;
using namespace std::chrono_literals;

namespace {

qlonglong listedLag(const MainWindow& window, const QString& group) {
    const int row = window.groupListModel()->rowOf(group);
    if (row < 0)
        return -1;
    return window.groupListModel()
        ->index(row, GroupListModel::TotalLagColumn)
        .data(GroupListModel::SortRole)
        .toLongLong();
}

} // namespace

class TestSandboxInTheGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QSKIP(qPrintable(why));
        sandbox::SandboxOptions options;
        options.namePrefix = test::uniqueName(QStringLiteral("gui-sandbox")) + u'-';
        options.rebalanceInterval = 4s;
        options.rateScale = 0.5;
        auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), options);
        QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
        m_workload = std::move(started).value();
        m_window = std::make_unique<MainWindow>();
        m_window->setRefreshInterval(500ms);
        m_window->resize(1400, 900);
        m_window->show();
        m_window->connectTo(test::brokerProfile());
    }

    void cleanupTestCase() {
        m_window.reset();
        if (m_workload)
            m_workload->stop();
    }

    void theBrowserListsTheSandboxGroupsWithTheLagKafkaReports() {
        const sandbox::SandboxLayout& layout = m_workload->layout();
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(layout.groupNames().cbegin(), layout.groupNames().cend(),
                        [&](const QString& group) {
                            return m_window->groupListModel()->rowOf(group) >= 0;
                        }),
            90000);
        // The archive's commits stand still while its topics grow, so its lag only rises:
        // a correct list shows a lag between what Kafka's tool reports before and after.
        const QString archive = layout.archive.name;
        QTRY_VERIFY_WITH_TIMEOUT(test::lagReportedByKafka(archive) >= 0, 60000);
        const qlonglong before = test::lagReportedByKafka(archive);
        QTRY_VERIFY_WITH_TIMEOUT(listedLag(*m_window, archive) >= before, 30000);
        const qlonglong shown = listedLag(*m_window, archive);
        const qlonglong after = test::lagReportedByKafka(archive);
        qInfo("archive lag: kafka-consumer-groups %lld, then the list %lld, then the tool %lld",
              before, shown, after);
        QVERIFY2(shown <= after, qPrintable(QStringLiteral("%1 > %2").arg(shown).arg(after)));
    }

    void openingShippingShowsGenerationsAppearingOnTheTimeline() {
        const QString shipping = m_workload->layout().shipping.name;
        m_window->openGroup(shipping);
        const ui::GroupDetailWidget* detail = m_window->groupDetail();
        QTRY_COMPARE_WITH_TIMEOUT(detail->monitorSnapshot().group, shipping, 60000);
        // The sandbox changes shipping's members every 4 s: new generations must keep
        // arriving while the group is open, each with its members and partition owners.
        QTRY_VERIFY_WITH_TIMEOUT(!detail->monitorSnapshot().timeline.generations.isEmpty(), 60000);
        const int32_t first = detail->monitorSnapshot().timeline.generations.last().generationId;
        QTRY_VERIFY_WITH_TIMEOUT(
            detail->monitorSnapshot().timeline.generations.last().generationId >= first + 2, 60000);
        const timeline::GroupTimeline& timeline = detail->monitorSnapshot().timeline;
        QSet<int> memberCounts;
        for (const timeline::Generation& generation : timeline.generations) {
            if (generation.members.isEmpty())
                continue;
            memberCounts.insert(int(generation.members.size()));
            QVERIFY2(!generation.ownerByPartition.isEmpty(),
                     qPrintable(QString::number(generation.generationId)));
        }
        QVERIFY2(memberCounts.size() >= 2, "the generations should differ in their members");
        QVERIFY(!detail->monitorSnapshot().timelineApproximate());
    }

private:
    std::unique_ptr<sandbox::SandboxWorkload> m_workload;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestSandboxInTheGui)
#include "TestSandboxInTheGui.moc"
