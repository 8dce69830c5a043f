// The exporter over months on a cluster where groups come and go (CI jobs, short-lived
// consumers): while groupscope-cli exporter watches the broker, this test creates and
// deletes GROUPSCOPE_SOAK_GROUPS groups (100,000 by default) in rounds, each round's groups
// committed on 4 partitions, seen by the exporter, deleted, and seen gone. Every cache keyed
// by group, member or coordinator must drop what disappeared: the exporter's resident
// memory after each round, once warmed up, must stay flat. Prints the memory per round.
// The broker is one of its own: the exporter polls every group of its cluster (the filter
// only picks what it exports), so another test's groups would grow it for good reason.

#include "../bench/BenchFigures.h"
#include "TestBroker.h"

#include "kafka/AdminClient.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <cstdio>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

constexpr int partitionsPerGroup = 4;
constexpr int groupsPerRound = 2000;
// Rounds before the memory is taken as the baseline: the first rounds grow the allocator's
// arenas and Qt's caches to their working size.
constexpr int warmUpRounds = 5;

} // namespace

class TestSoakExporterShortLivedGroups : public QObject {
    Q_OBJECT

    test::TestBedDirectory m_bed;
    QProcess m_exporter;
    quint16 m_port = 0;
    QNetworkAccessManager m_network;

    QByteArray scrape() {
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_port)));
        request.setTransferTimeout(10000);
        QNetworkReply* reply = m_network.get(request);
        (void)QTest::qWaitFor([reply] { return reply->isFinished(); }, 15000);
        const QByteArray body = reply->isFinished() ? reply->readAll() : QByteArray();
        reply->abort();
        reply->deleteLater();
        return body;
    }

    // The exporter's own figure `metric` (one series, labelled by cluster only) from one
    // scrape; -1 when absent.
    static double valueOf(const QByteArray& text, const QByteArray& metric) {
        for (const QByteArray& line : text.split('\n'))
            if (line.startsWith(metric + '{') || line.startsWith(metric + ' '))
                return line.mid(line.lastIndexOf(' ') + 1).toDouble();
        return -1;
    }

    // Waits until a refresh that started after this call has been served with `groups`
    // groups listed.
    bool waitForExporterToSee(int groups) {
        const double refreshesBefore =
            valueOf(scrape(), QByteArrayLiteral("groupscope_exporter_refreshes_total"));
        return test::waitFor(
            [&] {
                const QByteArray text = scrape();
                return valueOf(text, QByteArrayLiteral("groupscope_exporter_refreshes_total")) >
                           refreshesBefore + 1 &&
                       valueOf(text, QByteArrayLiteral("groupscope_exporter_groups")) == groups;
            },
            120s);
    }

private slots:
    void memoryStaysFlatAsGroupsComeAndGo() {
        QVERIFY2(m_bed.start({}, "GROUPSCOPE_TEST_SOAK_BROKER_DIR",
                             QStringLiteral("soak test broker"), 240s),
                 qPrintable(m_bed.error()));
        const QString bootstrap = m_bed.firstLineOf(QStringLiteral("bootstrap"));
        QVERIFY(!bootstrap.isEmpty());
        const int totalGroups = qEnvironmentVariableIsSet("GROUPSCOPE_SOAK_GROUPS")
                                    ? qEnvironmentVariableIntValue("GROUPSCOPE_SOAK_GROUPS")
                                    : 100'000;
        const int rounds = std::max(warmUpRounds + 2, totalGroups / groupsPerRound);
        const QString prefix = test::uniqueName(QStringLiteral("shortlived")) + u'-';
        const QString topic = prefix + QStringLiteral("topic");
        QVERIFY(test::createTopic(topic, partitionsPerGroup, bootstrap));
        QVERIFY(test::produce(topic, 40, -1, bootstrap));

        m_port = test::freeLoopbackPort();
        QVERIFY(m_port != 0);
        m_exporter.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_exporter.start(QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli"),
                         {QStringLiteral("--bootstrap-server"), bootstrap,
                          QStringLiteral("exporter"), QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("--interval"),
                          QStringLiteral("500"), QStringLiteral("--group-filter"),
                          QStringLiteral("^") + QRegularExpression::escape(prefix)});
        QVERIFY(m_exporter.waitForStarted());
        QVERIFY2(waitForExporterToSee(0), "the exporter never served a refresh");

        kafka::ConnectionProfile profile;
        profile.bootstrapServers = bootstrap;
        auto created = kafka::AdminClient::create(profile, 30s);
        QVERIFY(created);
        const std::unique_ptr<kafka::AdminClient> admin = std::move(created).value();

        QList<double> megabytesAfterRound;
        for (int round = 0; round < rounds; ++round) {
            QStringList groups;
            for (int g = 0; g < groupsPerRound; ++g) {
                const QString group = QStringLiteral("%1%2-%3").arg(prefix).arg(round).arg(g);
                QList<QPair<kafka::TopicPartition, int64_t>> offsets;
                for (int partition = 0; partition < partitionsPerGroup; ++partition)
                    offsets.append({{topic, partition}, (g + partition) % 10});
                const auto written = admin->alterCommittedOffsets(group, offsets);
                QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
                groups.append(group);
            }
            QVERIFY2(waitForExporterToSee(groupsPerRound),
                     qPrintable(QStringLiteral("round %1: the exporter did not list the %2 "
                                               "groups")
                                    .arg(round)
                                    .arg(groupsPerRound)));
            const auto deleted = admin->deleteGroups(groups);
            QVERIFY2(deleted, qPrintable(deleted ? QString() : deleted.error().toString()));
            for (auto it = deleted.value().cbegin(); it != deleted.value().cend(); ++it)
                QVERIFY2(!it.value().isError(),
                         qPrintable(it.key() + QStringLiteral(": ") + it.value().toString()));
            QVERIFY2(
                waitForExporterToSee(0),
                qPrintable(QStringLiteral("round %1: deleted groups are still listed").arg(round)));
            const double megabytes =
                bench::megabytes(double(bench::residentKilobytes(m_exporter.processId())));
            megabytesAfterRound.append(megabytes);
            std::printf("round %3d: %7d groups created and deleted so far, exporter resident "
                        "%.1f MB\n",
                        round + 1, (round + 1) * groupsPerRound, megabytes);
            std::fflush(stdout);
        }
        m_exporter.terminate();
        QVERIFY(m_exporter.waitForFinished(30000));

        // Flat: after the warm-up, no round ends more than 10% (and 8 MB, the allocator's
        // granularity at this size) above the highest of the warm-up rounds.
        const double baseline = *std::max_element(megabytesAfterRound.cbegin(),
                                                  megabytesAfterRound.cbegin() + warmUpRounds);
        const double last = megabytesAfterRound.last();
        const double peak = *std::max_element(megabytesAfterRound.cbegin() + warmUpRounds,
                                              megabytesAfterRound.cend());
        std::printf("exporter resident: %.1f MB after the warm-up, %.1f MB at most after it, "
                    "%.1f MB at the end (%d groups came and went)\n",
                    baseline, peak, last, rounds * groupsPerRound);
        QVERIFY2(peak <= baseline * 1.10 + 8,
                 qPrintable(QStringLiteral("the exporter grew from %1 MB to %2 MB")
                                .arg(baseline, 0, 'f', 1)
                                .arg(peak, 0, 'f', 1)));
    }
};

QTEST_GUILESS_MAIN(TestSoakExporterShortLivedGroups)
#include "TestSoakExporterShortLivedGroups.moc"
