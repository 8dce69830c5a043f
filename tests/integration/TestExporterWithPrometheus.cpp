// groupscope-cli exporter scraped by a real Prometheus server (Debian's prometheus package,
// run here with a temporary configuration and storage), watching a broker of its own on
// which a group has lags this test set (commits of known offsets, then a member of Kafka's
// own console consumer that owns a partition without a commit and commits nothing):
// Prometheus' HTTP API returns exactly those lags, which Kafka's own tool confirms. Then the
// broker stops: the exporter keeps serving the last good values (Prometheus keeps getting
// fresh samples of them) with groupscope_exporter_up 0 and a growing staleness; the broker
// restarts on its ports and data, and the exporter recovers by itself, with records produced
// after the restart in the lag.

#include "GroupMembers.h"
#include "TestBroker.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <cmath>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// One instant query's samples, as (labels, value) pairs; nullopt when the API did not
// answer with success.
struct Sample {
    QJsonObject labels;
    double value = 0;
};

} // namespace

class TestExporterWithPrometheus : public QObject {
    Q_OBJECT

    QString m_prometheusBinary;
    test::TestBedDirectory m_bed;
    QString m_bootstrap;
    QTemporaryDir m_prometheusDir;
    QProcess m_exporter;
    QProcess m_prometheus;
    QByteArray m_exporterOutput;
    quint16 m_exporterPort = 0;
    quint16 m_prometheusPort = 0;
    QNetworkAccessManager m_network;
    std::unique_ptr<test::ConsumerProtocolMember> m_member;
    QString m_topic;
    QString m_group;

    QByteArray get(const QUrl& url, int* status = nullptr) {
        QNetworkRequest request(url);
        request.setTransferTimeout(5000);
        QNetworkReply* reply = m_network.get(request);
        (void)QTest::qWaitFor([reply] { return reply->isFinished(); }, 10000);
        const QByteArray body = reply->isFinished() ? reply->readAll() : QByteArray();
        if (status)
            *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->abort();
        reply->deleteLater();
        return body;
    }

    std::optional<QList<Sample>> query(const QString& promql) {
        QUrl url(QStringLiteral("http://127.0.0.1:%1/api/v1/query").arg(m_prometheusPort));
        QUrlQuery parameters;
        parameters.addQueryItem(QStringLiteral("query"), promql);
        url.setQuery(parameters);
        const QJsonObject answer = QJsonDocument::fromJson(get(url)).object();
        if (answer.value(QStringLiteral("status")).toString() != QStringLiteral("success"))
            return std::nullopt;
        QList<Sample> samples;
        for (const QJsonValue& result : answer.value(QStringLiteral("data"))
                                            .toObject()
                                            .value(QStringLiteral("result"))
                                            .toArray()) {
            const QJsonObject object = result.toObject();
            Sample sample;
            sample.labels = object.value(QStringLiteral("metric")).toObject();
            sample.value =
                object.value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
            samples.append(sample);
        }
        return samples;
    }

    // The value of a query that has exactly one sample; NaN (equal to nothing) otherwise.
    double single(const QString& promql) {
        const auto samples = query(promql);
        if (!samples || samples->size() != 1)
            return std::nan("");
        return samples->first().value;
    }

    // Waits until the query has one sample and `accept` takes it; the last value seen.
    double waitForValue(const QString& promql, const std::function<bool(double)>& accept,
                        std::chrono::milliseconds timeout) {
        double last = std::nan("");
        test::waitFor(
            [&] {
                last = single(promql);
                return !std::isnan(last) && accept(last);
            },
            timeout);
        return last;
    }

    QString lagQuery(const QString& metric, const QString& group, int partition = -1) const {
        return partition < 0 ? QStringLiteral("%1{group=\"%2\"}").arg(metric, group)
                             : QStringLiteral("%1{group=\"%2\",partition=\"%3\"}")
                                   .arg(metric, group)
                                   .arg(partition);
    }

    QString failureContext() {
        if (m_exporter.state() != QProcess::NotRunning)
            m_exporterOutput += m_exporter.readAllStandardError();
        if (m_prometheus.state() == QProcess::NotRunning)
            return QStringLiteral("exporter said: %1")
                .arg(QString::fromUtf8(m_exporterOutput.right(2000)));
        return QStringLiteral("exporter said: %1\nprometheus said: %2")
            .arg(QString::fromUtf8(m_exporterOutput.right(2000)),
                 QString::fromUtf8(m_prometheus.readAllStandardError().right(2000)));
    }

private slots:
    void initTestCase() {
        m_prometheusBinary = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        if (m_prometheusBinary.isEmpty())
            QSKIP("prometheus is not installed (Debian package prometheus; "
                  "installer/install-deps.sh installs it): the exporter is not tested against "
                  "a real Prometheus server");
        QVERIFY(QFileInfo::exists(cliPath));
        QVERIFY(m_prometheusDir.isValid());
        // The broker is stopped and restarted here: one of its own, never the shared one.
        QVERIFY2(m_bed.start({}, "GROUPSCOPE_TEST_EXPORTER_BROKER_DIR",
                             QStringLiteral("exporter test broker"), 240s),
                 qPrintable(m_bed.error()));
        m_bootstrap = m_bed.firstLineOf(QStringLiteral("bootstrap"));
        QVERIFY(!m_bootstrap.isEmpty());
    }

    void cleanupTestCase() {
        if (m_member)
            m_member->leave();
        for (QProcess* process : {&m_prometheus, &m_exporter}) {
            if (process->state() == QProcess::NotRunning)
                continue;
            process->terminate();
            if (!process->waitForFinished(15000)) {
                process->kill();
                process->waitForFinished(5000);
            }
        }
        m_bed.stop();
    }

    void prometheusReturnsTheLagTheGroupHas() {
        const QString topic = test::uniqueName(QStringLiteral("exported"));
        const QString group = test::uniqueName(QStringLiteral("exported-group"));
        const QString otherGroup = test::uniqueName(QStringLiteral("filtered-out"));
        m_topic = topic;
        m_group = group;
        QVERIFY(test::createTopic(topic, 3, m_bootstrap));
        QVERIFY(test::produce(topic, 10, 0, m_bootstrap));
        QVERIFY(test::produce(topic, 7, 1, m_bootstrap));
        QVERIFY(test::produce(topic, 5, 2, m_bootstrap));
        // Lag 6 on partition 0, 0 on partition 1, and no commit on partition 2, which the
        // member owns with the others and never commits (auto-commit off).
        QVERIFY(test::commitOffsets(group, topic, {4, 7}, {}, m_bootstrap));
        QVERIFY(test::commitOffsets(otherGroup, topic, {1, 1, 1}, {}, m_bootstrap));
        const QString clientId = test::uniqueName(QStringLiteral("exported-member"));
        m_member = std::make_unique<test::ConsumerProtocolMember>(topic, group, clientId, false,
                                                                  m_bootstrap);
        QVERIFY(m_member->waitUntilAssigned(3, 120s));
        // Kafka's own tool sees the lag this test means: 6 in all.
        QCOMPARE(test::lagReportedByKafka(group, m_bootstrap), 6);

        // The exporter: port 0 lets the system pick; it prints where it listens.
        m_exporter.setProgram(cliPath);
        m_exporter.setArguments(
            {QStringLiteral("--bootstrap-server"), m_bootstrap, QStringLiteral("--timeout"),
             QStringLiteral("2000"), QStringLiteral("exporter"), QStringLiteral("--listen"),
             QStringLiteral("127.0.0.1:0"), QStringLiteral("--interval"), QStringLiteral("500"),
             QStringLiteral("--cluster-name"), QStringLiteral("test-cluster"),
             QStringLiteral("--member-labels"), QStringLiteral("--group-filter"),
             QStringLiteral("^%1$").arg(QRegularExpression::escape(group))});
        m_exporter.start();
        QVERIFY(m_exporter.waitForStarted(10000));
        const QRegularExpression serving(
            QStringLiteral("Serving http://127\\.0\\.0\\.1:(\\d+)/metrics"));
        QVERIFY2(test::waitFor(
                     [&] {
                         m_exporterOutput += m_exporter.readAllStandardOutput();
                         const auto match = serving.match(QString::fromUtf8(m_exporterOutput));
                         if (match.hasMatch())
                             m_exporterPort = quint16(match.captured(1).toUInt());
                         return m_exporterPort != 0 || m_exporter.state() == QProcess::NotRunning;
                     },
                     30s) &&
                     m_exporterPort != 0,
                 qPrintable(failureContext()));

        // Prometheus from Debian's package, with a configuration and storage of its own.
        m_prometheusPort = test::freeLoopbackPort();
        QVERIFY(m_prometheusPort != 0);
        const QString config = m_prometheusDir.filePath(QStringLiteral("prometheus.yml"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("global:\n"
                                  "  scrape_interval: 1s\n"
                                  "  scrape_timeout: 1s\n"
                                  "scrape_configs:\n"
                                  "  - job_name: groupscope\n"
                                  "    static_configs:\n"
                                  "      - targets: ['127.0.0.1:%1']\n")
                       .arg(m_exporterPort)
                       .toUtf8());
        file.close();
        m_prometheus.setProgram(m_prometheusBinary);
        m_prometheus.setArguments(
            {QStringLiteral("--config.file=") + config,
             QStringLiteral("--storage.tsdb.path=") +
                 m_prometheusDir.filePath(QStringLiteral("data")),
             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_prometheusPort),
             QStringLiteral("--log.level=warn")});
        m_prometheus.start();
        QVERIFY(m_prometheus.waitForStarted(10000));
        const QUrl ready(QStringLiteral("http://127.0.0.1:%1/-/ready").arg(m_prometheusPort));
        QVERIFY2(test::waitFor(
                     [&] {
                         int status = 0;
                         get(ready, &status);
                         return status == 200 || m_prometheus.state() == QProcess::NotRunning;
                     },
                     60s) &&
                     m_prometheus.state() == QProcess::Running,
                 qPrintable(failureContext()));

        // Prometheus scraped the exporter and the API returns the group's true lags.
        const auto lag0 = waitForValue(
            lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 0),
            [](double value) { return value == 6; }, 60s);
        QVERIFY2(lag0 == 6, qPrintable(failureContext()));
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 1)), 0.0);
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_group_offset"), group, 0)),
                 4.0);
        QCOMPARE(
            single(QStringLiteral("kafka_partition_latest_offset{topic=\"%1\",partition=\"0\"}")
                       .arg(topic)),
            10.0);
        // No commit on partition 2: no lag sample, and counted apart from the sum.
        const auto noCommit =
            query(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 2));
        QVERIFY(noCommit);
        QVERIFY(noCommit->isEmpty());
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_group_sum_lag"), group)), 6.0);
        QCOMPARE(single(lagQuery(
                     QStringLiteral("groupscope_consumergroup_partitions_without_commit"), group)),
                 1.0);
        QCOMPARE(
            single(QStringLiteral("sum(kafka_consumergroup_group_lag{group=\"%1\"})").arg(group)),
            double(test::lagReportedByKafka(group, m_bootstrap)));
        // The labels Prometheus stored: kafka-lag-exporter's, with the cluster's name.
        const auto samples =
            query(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 0));
        QVERIFY(samples && samples->size() == 1);
        QCOMPARE(samples->first().labels.value(QStringLiteral("cluster_name")).toString(),
                 QStringLiteral("test-cluster"));
        QCOMPARE(samples->first().labels.value(QStringLiteral("topic")).toString(), topic);
        // The member's labels on its partitions, as kafka-lag-exporter puts them.
        QCOMPARE(samples->first().labels.value(QStringLiteral("client_id")).toString(), clientId);
        QVERIFY(!samples->first().labels.value(QStringLiteral("consumer_id")).toString().isEmpty());
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_members"), group)), 1.0);
        QCOMPARE(
            single(QStringLiteral("groupscope_consumergroup_state{group=\"%1\",state=\"Stable\"}")
                       .arg(group)),
            1.0);
        const auto info =
            query(QStringLiteral("groupscope_consumergroup_info{group=\"%1\"}").arg(group));
        QVERIFY(info && info->size() == 1);
        QCOMPARE(info->first().labels.value(QStringLiteral("type")).toString(),
                 QStringLiteral("consumer"));
        // The filter kept the other group out.
        QVERIFY(query(QStringLiteral("kafka_consumergroup_group_lag{group=\"%1\"}").arg(otherGroup))
                    ->isEmpty());
        QCOMPARE(single(QStringLiteral("up{job=\"groupscope\"}")), 1.0);
        QCOMPARE(single(QStringLiteral("groupscope_exporter_up")), 1.0);
        QCOMPARE(single(QStringLiteral("groupscope_exporter_groups")), 1.0);
    }

    void aStoppedClusterServesTheLastValuesUntilItIsBack() {
        if (m_prometheusPort == 0)
            QSKIP("the scrape did not start");
        const QString group = m_group;
        QVERIFY(m_bed.broker(QStringLiteral("stop")).ok());
        const double stoppedAt = QDateTime::currentMSecsSinceEpoch() / 1000.0;

        // up goes to 0 and the staleness grows past a few seconds...
        QVERIFY2(waitForValue(
                     QStringLiteral("groupscope_exporter_up"),
                     [](double value) { return value == 0; }, 60s) == 0.0,
                 qPrintable(failureContext()));
        const auto stale = waitForValue(
            QStringLiteral("groupscope_exporter_staleness_seconds"),
            [](double value) { return value >= 4; }, 60s);
        QVERIFY2(stale >= 4, qPrintable(failureContext()));
        const auto staler = waitForValue(
            QStringLiteral("groupscope_exporter_staleness_seconds"),
            [&](double value) { return value > stale; }, 30s);
        QVERIFY(staler > stale);
        // ...while the last good values are still served: samples scraped after the stop.
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 0)), 6.0);
        // `broker stop` returns once the broker has exited, which takes seconds on a busy
        // machine: the first scrapes after it may still be older than stoppedAt + 2. Each
        // scrape while the exporter serves is a newer sample, so one comes.
        double sampledAt = 0;
        test::waitFor(
            [&] {
                sampledAt = single(
                    QStringLiteral("timestamp(%1)")
                        .arg(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 0)));
                return sampledAt > stoppedAt + 2;
            },
            30s);
        QVERIFY2(sampledAt > stoppedAt + 2,
                 qPrintable(
                     QStringLiteral("sampled at %1, stopped at %2").arg(sampledAt).arg(stoppedAt)));
        QVERIFY(m_exporter.state() == QProcess::Running);

        // The broker is back on its ports and data: the exporter recovers by itself.
        const auto restarted = m_bed.broker(QStringLiteral("restart"), {}, 180s);
        QVERIFY2(restarted.ok(), restarted.err.constData());
        QVERIFY2(waitForValue(
                     QStringLiteral("groupscope_exporter_up"),
                     [](double value) { return value == 1; }, 120s) == 1.0,
                 qPrintable(failureContext()));
        QVERIFY(waitForValue(
                    QStringLiteral("groupscope_exporter_staleness_seconds"),
                    [](double value) { return value < 3; }, 30s) < 3);
        // Fresh values, not the old ones: records produced after the restart are lag.
        QVERIFY(test::produce(m_topic, 3, 1, m_bootstrap));
        const auto lag = waitForValue(
            lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 1),
            [](double value) { return value == 3; }, 60s);
        QVERIFY2(lag == 3.0, qPrintable(failureContext()));
        QCOMPARE(single(lagQuery(QStringLiteral("kafka_consumergroup_group_lag"), group, 0)), 6.0);
    }
};

QTEST_GUILESS_MAIN(TestExporterWithPrometheus)
#include "TestExporterWithPrometheus.moc"
