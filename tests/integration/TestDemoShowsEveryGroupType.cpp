// The README's embedded default shows what sets Groupscope apart on Kafka 4: the sandbox
// (classic groups, and `fulfilment` on the consumer protocol, decided reliably on a fresh
// broker) with installer/demo-members.sh beside it (a share group and a streams group).
// Run on the fixture broker under a name prefix of its own; `list --json` must show a group
// of each of the four types.

#include "TestBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <csignal>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
const QString demoMembers =
    QStringLiteral(GROUPSCOPE_TESTBED_DIR "/../../installer/demo-members.sh");

// Ends a process as Ctrl-C would, so it closes its members cleanly.
void interrupt(QProcess& process) {
    if (process.state() == QProcess::NotRunning)
        return;
    ::kill(pid_t(process.processId()), SIGTERM);
    if (!process.waitForFinished(60000))
        process.kill();
}

} // namespace

class TestDemoShowsEveryGroupType : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    void everyGroupTypeIsListed() {
        const QString prefix = test::uniqueName(QStringLiteral("demo")) + u'-';
        QProcess sandbox;
        sandbox.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        sandbox.start(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                QStringLiteral("sandbox"), QStringLiteral("--name-prefix"), prefix,
                                QStringLiteral("--rate-scale"), QStringLiteral("0.2"),
                                QStringLiteral("--quiet")});
        QVERIFY(sandbox.waitForStarted());
        QProcess members;
        members.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        members.start(demoMembers, {test::bootstrapServers(), prefix});
        QVERIFY(members.waitForStarted());

        const QMap<QString, QString> expected{
            {prefix + QStringLiteral("billing"), QStringLiteral("Classic")},
            {prefix + QStringLiteral("fulfilment"), QStringLiteral("Consumer")},
            {prefix + QStringLiteral("order-audit"), QStringLiteral("Share")},
            {prefix + QStringLiteral("order-words"), QStringLiteral("Streams")}};
        QMap<QString, QString> listed;
        const bool allListed = test::waitFor(
            [&] {
                const auto list = test::run(
                    cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                              QStringLiteral("list"), QStringLiteral("--json")});
                listed.clear();
                for (const QJsonValue& group : QJsonDocument::fromJson(list.out).array())
                    if (expected.contains(group[QStringLiteral("group")].toString()))
                        listed.insert(group[QStringLiteral("group")].toString(),
                                      group[QStringLiteral("type")].toString());
                return listed == expected;
            },
            240s);
        interrupt(members);
        interrupt(sandbox);
        QVERIFY2(allListed, qPrintable(QStringLiteral("listed: %1")
                                           .arg(QStringList(listed.keys()).join(u' ') + u' ' +
                                                QStringList(listed.values()).join(u' '))));
    }
};

QTEST_GUILESS_MAIN(TestDemoShowsEveryGroupType)
#include "TestDemoShowsEveryGroupType.moc"
