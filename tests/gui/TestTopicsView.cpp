// The Topics tab against the real broker: a topic's groups are listed with the same lag
// as the group list shows for them (one poll feeds both), a hidden tab is brought up to
// date when shown, the filter keeps the matching rows, and activating a row opens its
// group in the detail.

#include "BrokerWindow.h"

#include "models/GroupListModel.h"
#include "models/PartitionTableModel.h"
#include "models/TopicConsumerModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TopicsView.h"
#include "windows/MainWindow.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include <memory>

using namespace groupscope;

class TestTopicsView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        test::keepGuiSettingsApart();
    }

    void topicsListTheirGroupsWithTheGroupListsLag() {
        const QString topic = test::uniqueName(QStringLiteral("gui-topic"));
        const QString reader = test::uniqueName(QStringLiteral("gui-reader"));
        const QString other = test::uniqueName(QStringLiteral("gui-other"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 30));
        QVERIFY(test::commitOffsets(reader, topic, {2, 3}));
        QVERIFY(test::commitOffsets(other, topic, {1}));

        auto window = test::brokerWindow();
        window->show();
        ui::GroupListModel* groups = window->groupListModel();
        QTRY_VERIFY_WITH_TIMEOUT(groups->rowOf(reader) >= 0 && groups->rowOf(other) >= 0, 30000);

        // Hidden, the tab has not been filled; shown, it catches up.
        ui::TopicConsumerModel* topics = window->topicsView()->model();
        QCOMPARE(topics->rowOf(topic, reader), -1);
        window->browserTabs()->setCurrentWidget(window->topicsView());
        QTRY_VERIFY_WITH_TIMEOUT(topics->rowOf(topic, reader) >= 0, 10000);
        const qlonglong kafkaLag = test::lagReportedByKafka(reader);
        QTRY_COMPARE_WITH_TIMEOUT(topics->rowAt(topics->rowOf(topic, reader)).lag.value_or(-1),
                                  int64_t(kafkaLag), 10000);
        QCOMPARE(groups->rowAt(groups->rowOf(reader)).totalLag.value_or(-2), int64_t(kafkaLag));
        const auto& otherRow = topics->rowAt(topics->rowOf(topic, other));
        QCOMPARE(otherRow.partitions, 1);
        QCOMPARE(otherRow.topicPartitions, 2);
        QCOMPARE(otherRow.lag, groups->rowAt(groups->rowOf(other)).totalLag);

        // The filter keeps the topic's rows; activating the reader's row opens it.
        window->topicsView()->filterEdit()->setText(topic);
        QCOMPARE(window->topicsView()->proxy()->rowCount(), 2);
        window->topicsView()->filterEdit()->setText(reader);
        QCOMPARE(window->topicsView()->proxy()->rowCount(), 1);
        const QModelIndex row = window->topicsView()->proxy()->index(0, 0);
        emit window->topicsView()->view()->activated(row);
        QCOMPARE(window->groupDetail()->groupId(), reader);
    }

    // The open group's commits on a topic vanish when the topic is deleted (Kafka deletes
    // them with it): the detail says so, the other topic's rows stay, and the Topics tab
    // drops the deleted topic's row.
    void aTopicDeletedWhileItsGroupIsOpenIsSaidSo() {
        const QString doomed = test::uniqueName(QStringLiteral("gui-doomed"));
        const QString keeper = test::uniqueName(QStringLiteral("gui-keeper"));
        const QString group = test::uniqueName(QStringLiteral("gui-bereft"));
        QVERIFY(test::createTopic(doomed, 2));
        QVERIFY(test::createTopic(keeper, 1));
        QVERIFY(test::produce(doomed, 10));
        QVERIFY(test::produce(keeper, 10));
        QVERIFY(test::commitOffsets(group, doomed, {2, 3}));
        QVERIFY(test::commitOffsets(group, keeper, {4}));

        auto window = test::brokerWindow();
        window->show();
        window->browserTabs()->setCurrentWidget(window->topicsView());
        window->openGroup(group);
        ui::GroupDetailWidget* detail = window->groupDetail();
        QTRY_COMPARE_WITH_TIMEOUT(detail->partitionModel()->rowCount(), 3, 30000);
        ui::TopicConsumerModel* topics = window->topicsView()->model();
        QTRY_VERIFY_WITH_TIMEOUT(topics->rowOf(doomed, group) >= 0, 10000);
        QSignalSpy messages(detail, &ui::GroupDetailWidget::statusMessage);

        const auto deleted =
            test::run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-topics"),
                      {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                       QStringLiteral("--delete"), QStringLiteral("--topic"), doomed});
        QVERIFY2(deleted.ok(), deleted.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(detail->partitionModel()->rowCount(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 10000);
        const QString said = messages.last().at(0).toString();
        QVERIFY2(said.contains(doomed) && said.contains(QStringLiteral("2 partition")) &&
                     said.contains(QStringLiteral("deleted")),
                 qPrintable(said));
        QVERIFY2(detail->headerText().contains(doomed), qPrintable(detail->headerText()));
        QTRY_COMPARE_WITH_TIMEOUT(topics->rowOf(doomed, group), -1, 10000);
        QVERIFY(topics->rowOf(keeper, group) >= 0);
    }
};

QTEST_MAIN(TestTopicsView)
#include "TestTopicsView.moc"
