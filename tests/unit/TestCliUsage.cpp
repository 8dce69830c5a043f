// The CLI's answers to bad input that need no cluster: usage errors exit 2 and say what
// is wrong; input errors exit 1 and name the file, line and key.
#include "cli/CliMain.h"

#include <QTemporaryDir>
#include <QTest>

namespace {
struct CliRun {
    int exitCode;
    QString out;
    QString err;
};
CliRun runCli(const QStringList& arguments) {
    QString out, err;
    QTextStream outStream(&out), errStream(&err);
    const int exitCode = groupscope::cli::runCli(arguments, outStream, errStream);
    outStream.flush();
    errStream.flush();
    return {exitCode, out, err};
}
} // namespace

class TestCliUsage : public QObject {
    Q_OBJECT
private slots:
    void usageErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString b = QStringLiteral("--bootstrap-server");
        const QString addr = QStringLiteral("127.0.0.1:1");
        QTest::newRow("no command") << QStringList{b, addr} << QStringLiteral("no command given");
        QTest::newRow("unknown command") << QStringList{b, addr, QStringLiteral("frob")}
                                         << QStringLiteral("unknown command \"frob\"");
        QTest::newRow("no bootstrap")
            << QStringList{QStringLiteral("list")} << QStringLiteral("missing --bootstrap-server");
        QTest::newRow("describe without groups") << QStringList{b, addr, QStringLiteral("describe")}
                                                 << QStringLiteral("either --group G");
        QTest::newRow("describe both") << QStringList{b,
                                                      addr,
                                                      QStringLiteral("describe"),
                                                      QStringLiteral("--group"),
                                                      QStringLiteral("g"),
                                                      QStringLiteral("--all-groups")}
                                       << QStringLiteral("either --group G");
        QTest::newRow("unknown option")
            << QStringList{b, addr, QStringLiteral("list"), QStringLiteral("--frob")}
            << QStringLiteral("unexpected argument \"--frob\"");
        QTest::newRow("bad timeout") << QStringList{b, addr, QStringLiteral("--timeout"),
                                                    QStringLiteral("soon"), QStringLiteral("list")}
                                     << QStringLiteral("--timeout takes milliseconds");
        QTest::newRow("value missing")
            << QStringList{b, addr, QStringLiteral("describe"), QStringLiteral("--group")}
            << QStringLiteral("--group needs a value");
        QTest::newRow("two views") << QStringList{b,
                                                  addr,
                                                  QStringLiteral("describe"),
                                                  QStringLiteral("--all-groups"),
                                                  QStringLiteral("--members"),
                                                  QStringLiteral("--state")}
                                   << QStringLiteral("choose one of");
        // The exporter refuses a bad filter or address before it listens: nothing served
        // (out stays empty: no "Serving ..." line).
        const QString exporter = QStringLiteral("exporter");
        const QString listen = QStringLiteral("--listen");
        QTest::newRow("exporter without --listen")
            << QStringList{b, addr, exporter} << QStringLiteral("give --listen");
        // The exporter on port 0, with the options under test after it.
        const auto listening = [&](const QStringList& options) {
            return QStringList{b, addr, exporter, listen, QStringLiteral("0")} + options;
        };
        QTest::newRow("exporter bad filter")
            << listening({QStringLiteral("--group-filter"), QStringLiteral("billing-[a-")})
            << QStringLiteral("--group-filter: invalid regular expression \"billing-[a-\": "
                              "missing terminating ] for character class at offset 11");
        QTest::newRow("exporter bad topic filter")
            << listening({QStringLiteral("--topic-filter"), QStringLiteral("(orders")})
            << QStringLiteral("--topic-filter: invalid regular expression \"(orders\"");
        QTest::newRow("exporter bad granularity")
            << listening({QStringLiteral("--granularity"), QStringLiteral("member")})
            << QStringLiteral("--granularity takes partition, topic or group, got \"member\"");
        QTest::newRow("exporter member labels without partitions")
            << listening({QStringLiteral("--granularity"), QStringLiteral("group"),
                          QStringLiteral("--member-labels")})
            << QStringLiteral("it needs --granularity partition");
        QTest::newRow("exporter host name")
            << QStringList{b, addr, exporter, listen, QStringLiteral("metrics.example:9308")}
            << QStringLiteral("is not an IP address");
        QTest::newRow("exporter bad interval")
            << listening({QStringLiteral("--interval"), QStringLiteral("5")})
            << QStringLiteral("--interval takes milliseconds");
    }
    void usageErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliRun run = runCli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void malformedCommandConfigNamesLineAndKey() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("client.properties"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# settings\nsecurity.protocol=PLAINTEXT\nfetch.wait.max.ms=abc\n");
        file.close();
        const CliRun run =
            runCli({QStringLiteral("--bootstrap-server"), QStringLiteral("127.0.0.1:1"),
                    QStringLiteral("--command-config"), path, QStringLiteral("list")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(path + QStringLiteral(":3: property \"fetch.wait.max.ms\"")),
                 qPrintable(run.err));
    }

    void helpAndVersion() {
        const CliRun help = runCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("describe (--group G ... | --all-groups)")));
        const CliRun version = runCli({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        const QStringList lines = version.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0), QStringLiteral("groupscope-cli " GROUPSCOPE_VERSION));
        // The librdkafka in use, at least the minimum Groupscope is built for (2.12).
        QVERIFY2(lines.at(1).startsWith(u"librdkafka 2."), qPrintable(lines.at(1)));
        QVERIFY2(lines.at(1).mid(13).split(u'.').value(0).toInt() >= 12, qPrintable(lines.at(1)));
    }

    // history reads only the local audit log, so it needs no cluster address.
    void historyNeedsNoCluster() {
        QTemporaryDir dataDir;
        QVERIFY(dataDir.isValid());
        qputenv("GROUPSCOPE_DATA_DIR", dataDir.path().toUtf8());
        const CliRun history = runCli({QStringLiteral("history"), QStringLiteral("--json")});
        qunsetenv("GROUPSCOPE_DATA_DIR");
        QCOMPARE(history.exitCode, 0);
        QVERIFY2(!history.err.contains(QStringLiteral("bootstrap")), qPrintable(history.err));
        QCOMPARE(history.out.trimmed(), QStringLiteral("[\n]"));
    }
};

QTEST_GUILESS_MAIN(TestCliUsage)
#include "TestCliUsage.moc"
