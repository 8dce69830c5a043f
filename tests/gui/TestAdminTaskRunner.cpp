// AdminTaskRunner, the worker that runs the GUI's one-off Admin jobs: jobs run on its own
// thread in order, continuations come back on the caller's thread, a destroyed context
// drops its continuation, and a cancelled job's Admin call ends early.

#include "TestBroker.h"

#include "monitor/AdminTaskRunner.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>

#include <memory>

using namespace groupscope;
using monitor::AdminTaskRunner;

class TestAdminTaskRunner : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    void runsJobsInOrderOnItsThreadAndAnswersOnOurs() {
        AdminTaskRunner runner(test::brokerProfile());
        QList<int> order;
        QThread* workerThread = nullptr;
        bool answeredOnGuiThread = false;
        int groups = -1;
        runner.post(this, [&](kafka::AdminClient* admin, const kafka::KafkaError&, const auto&) {
            workerThread = QThread::currentThread();
            auto listed = admin ? admin->listGroups()
                                : kafka::Result<QList<kafka::GroupListing>>(kafka::KafkaError());
            const int count = listed ? int(listed.value().size()) : -1;
            return AdminTaskRunner::Continuation([&, count] {
                answeredOnGuiThread = QThread::currentThread() == qApp->thread();
                groups = count;
                order.append(1);
            });
        });
        runner.post(this, [&](kafka::AdminClient*, const kafka::KafkaError&, const auto&) {
            return AdminTaskRunner::Continuation([&] { order.append(2); });
        });
        QTRY_COMPARE_WITH_TIMEOUT(order.size(), 2, 30000);
        QCOMPARE(order, (QList<int>{1, 2}));
        QVERIFY(workerThread && workerThread != qApp->thread());
        QVERIFY(answeredOnGuiThread);
        QVERIFY(groups >= 0);
        QCOMPARE(runner.pendingJobs(), 0);
    }

    void destroyedContextDropsTheContinuation() {
        AdminTaskRunner runner(test::brokerProfile());
        auto context = std::make_unique<QObject>();
        bool called = false;
        bool ran = false;
        runner.post(context.get(), [&](kafka::AdminClient*, const kafka::KafkaError&, const auto&) {
            ran = true;
            return AdminTaskRunner::Continuation([&] { called = true; });
        });
        context.reset();
        QTRY_COMPARE_WITH_TIMEOUT(runner.pendingJobs(), 0, 30000);
        QVERIFY(ran);
        QVERIFY(!called);
    }

    void unreachableClusterIsAnErrorValue() {
        kafka::ConnectionProfile nowhere;
        nowhere.bootstrapServers = QStringLiteral("127.0.0.1:1");
        AdminTaskRunner runner(nowhere, std::chrono::milliseconds(2000));
        QString message;
        runner.post(this, [&](kafka::AdminClient* admin, const kafka::KafkaError& creationError,
                              const auto&) {
            QString text = creationError.message;
            if (admin) {
                auto listed = admin->listGroups();
                text = listed ? QStringLiteral("listed?") : listed.error().message;
            }
            return AdminTaskRunner::Continuation([&, text] { message = text; });
        });
        QTRY_VERIFY_WITH_TIMEOUT(!message.isEmpty(), 30000);
        QVERIFY2(message.contains(QStringLiteral("127.0.0.1:1")), qPrintable(message));
    }
};

QTEST_MAIN(TestAdminTaskRunner)
#include "TestAdminTaskRunner.moc"
