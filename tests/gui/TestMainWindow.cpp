// The main window against the real broker: a group with committed offsets appears with the
// lag Kafka's own tool reports, later refreshes update it in place (the selection stays),
// an unreachable cluster is reported in the status bar, and so is a profile whose groups
// only librdkafka can read.

#include "TestBroker.h"

#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupListModel;
using groupscope::ui::MainWindow;

namespace {

qlonglong shownLag(const MainWindow& window, const QString& group) {
    const int row = window.groupListModel()->rowOf(group);
    if (row < 0)
        return -2;
    return window.groupListModel()
        ->index(row, GroupListModel::TotalLagColumn)
        .data(GroupListModel::SortRole)
        .toLongLong();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QSKIP(qPrintable(why));
    }

    void showsTheGroupWithTheLagKafkaReports() {
        const QString topic = test::uniqueName(QStringLiteral("gui-orders"));
        const QString group = test::uniqueName(QStringLiteral("gui-billing"));
        QVERIFY(test::createTopic(topic, 3));
        QVERIFY(test::produce(topic, 10, 0));
        QVERIFY(test::produce(topic, 20, 1));
        QVERIFY(test::produce(topic, 5, 2));
        QVERIFY(test::commitOffsets(group, topic, {4, 15, 5})); // lag 6 + 5 + 0
        QCOMPARE(test::lagReportedByKafka(group), 11);

        MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(shownLag(window, group), 11, 30000);
        QVERIFY(!window.connectionStatusIsError());
        QVERIFY2(window.connectionStatusText().startsWith(
                     QStringLiteral("Connected to %1").arg(test::bootstrapServers())),
                 qPrintable(window.connectionStatusText()));

        const int row = window.groupListModel()->rowOf(group);
        const QModelIndex source = window.groupListModel()->index(row, 0);
        QCOMPARE(source.siblingAtColumn(GroupListModel::StateColumn).data().toString(),
                 QStringLiteral("Empty"));
        QCOMPARE(source.siblingAtColumn(GroupListModel::TopicsColumn).data().toInt(), 1);

        // Select the group, then let the lag grow: the refresh updates the cell in place and
        // the selection stays on the group.
        QTableView* view = window.groupView();
        const QModelIndex shown = window.groupProxyModel()->mapFromSource(source);
        view->selectionModel()->select(shown, QItemSelectionModel::ClearAndSelect |
                                                  QItemSelectionModel::Rows);
        QSignalSpy resets(window.groupListModel(), &QAbstractItemModel::modelReset);
        QVERIFY(test::produce(topic, 7, 2));
        QTRY_COMPARE_WITH_TIMEOUT(shownLag(window, group), 18, 30000);
        QCOMPARE(test::lagReportedByKafka(group), 18);
        QCOMPARE(resets.count(), 0);
        const auto selected = view->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data(GroupListModel::GroupIdRole).toString(), group);
    }

    void filterNarrowsTheListToMatchingGroups() {
        const QString topic = test::uniqueName(QStringLiteral("gui-filter"));
        const QString group = test::uniqueName(QStringLiteral("gui-filtered"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 3, 0));
        QVERIFY(test::commitOffsets(group, topic, {1}));

        MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        QTRY_VERIFY_WITH_TIMEOUT(window.groupListModel()->rowOf(group) >= 0, 30000);
        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"));
        QVERIFY(filter);
        QTest::keyClicks(filter, topic); // matches by topic name
        QCOMPARE(window.groupProxyModel()->rowCount(), 1);
        QCOMPARE(window.groupProxyModel()->index(0, 0).data(GroupListModel::GroupIdRole).toString(),
                 group);
    }

    void unreachableClusterIsReportedInTheStatusBar() {
        MainWindow window;
        kafka::ConnectionProfile nowhere;
        nowhere.bootstrapServers = QStringLiteral("127.0.0.1:1");
        window.connectTo(nowhere);
        window.show();
        QVERIFY(!window.connectionStatusIsError()); // "Connecting to …" while it tries
        QTRY_VERIFY_WITH_TIMEOUT(window.connectionStatusIsError(), 30000);
        QVERIFY2(window.connectionStatusText().contains(QStringLiteral("127.0.0.1:1")),
                 qPrintable(window.connectionStatusText()));
        QCOMPARE(window.groupListModel()->rowCount(), 0);
    }

    // A profile Groupscope's own group client cannot speak: the status bar says that the
    // groups come through librdkafka, and its tooltip why and what that costs.
    void librdkafkaFallbackIsShownInTheStatusBar() {
        MainWindow window;
        auto* mode = window.findChild<QLabel*>(QStringLiteral("connectionMode"));
        QVERIFY(mode);
        window.connectTo(test::brokerProfile());
        QVERIFY(mode->text().isEmpty());
        kafka::ConnectionProfile kerberos;
        kerberos.bootstrapServers = QStringLiteral("127.0.0.1:1");
        kerberos.securityProtocol = QStringLiteral("SASL_PLAINTEXT");
        kerberos.saslMechanism = QStringLiteral("GSSAPI");
        window.connectTo(kerberos);
        QCOMPARE(mode->text(), QStringLiteral("Via librdkafka"));
        QVERIFY2(mode->toolTip().contains(QStringLiteral("SASL mechanism GSSAPI")) &&
                     mode->toolTip().contains(QStringLiteral("share or streams groups")),
                 qPrintable(mode->toolTip()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
