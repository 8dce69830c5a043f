#include "TestBroker.h"

#include "KafkaToolServer.h"

#include "kafka/AdminClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTimer>
#include <QUuid>

namespace groupscope::test {

QString bootstrapServers(QString* why) {
    const QString external = qEnvironmentVariable("GROUPSCOPE_TEST_BOOTSTRAP");
    if (!external.isEmpty())
        return external;
    const QString dir = qEnvironmentVariable("GROUPSCOPE_TEST_BROKER_DIR");
    QFile file(dir + QStringLiteral("/bootstrap"));
    if (!dir.isEmpty() && !file.open(QIODevice::ReadOnly)) {
        // Under ctest the fixture must have started a broker: a test that skipped here would
        // count as passed, and a run whose broker never started would look green.
        qFatal("ctest's broker fixture left no %s/bootstrap; see the broker log in that "
               "directory (a test run by hand without a broker skips instead)",
               qPrintable(dir));
    }
    if (dir.isEmpty()) {
        if (why)
            *why = QStringLiteral("no test broker: set GROUPSCOPE_TEST_BOOTSTRAP or run through "
                                  "ctest, which starts one (fixture kafka_broker)");
        return {};
    }
    return QString::fromUtf8(file.readAll()).trimmed();
}

kafka::ConnectionProfile brokerProfile() {
    kafka::ConnectionProfile profile;
    profile.name = QStringLiteral("test broker");
    profile.bootstrapServers = bootstrapServers();
    return profile;
}

QString uniqueName(const QString& prefix) {
    return QStringLiteral("%1-%2").arg(prefix, QUuid::createUuid().toString(QUuid::Id128).left(12));
}

ProcessResult run(const QString& program, const QStringList& arguments, const QByteArray& input,
                  std::chrono::milliseconds timeout) {
    QProcess process;
    process.start(program, arguments);
    ProcessResult result;
    if (!process.waitForStarted(10000)) {
        result.err =
            QStringLiteral("cannot start %1: %2").arg(program, process.errorString()).toUtf8();
        return result;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(int(timeout.count()))) {
        process.kill();
        process.waitForFinished(5000);
        result.err = QStringLiteral("%1 did not finish within %2 ms")
                         .arg(program)
                         .arg(timeout.count())
                         .toUtf8();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

namespace {

QString orTestBroker(const QString& bootstrap) {
    return bootstrap.isEmpty() ? bootstrapServers() : bootstrap;
}

} // namespace

ProcessResult runPython(const QString& script, std::chrono::milliseconds timeout,
                        const QString& bootstrap) {
    const QString prelude =
        QStringLiteral("BOOTSTRAP = %1\n")
            .arg(QStringLiteral("'") + orTestBroker(bootstrap) + QStringLiteral("'"));
    // Debian's python3 carries python3-kafka; a python3 earlier on PATH may not.
    return run(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), prelude + script}, {},
               timeout);
}

QStringList afterSetupCommits(QStringList arguments) {
    if (!arguments.contains(QStringLiteral("--execute")))
        return arguments;
    const bool deletesOffsets = arguments.contains(QStringLiteral("delete-offsets"));
    const bool verifies =
        arguments.contains(QStringLiteral("reset")) || arguments.contains(QStringLiteral("undo"));
    if (!deletesOffsets && !verifies)
        return arguments;
    if (!arguments.contains(QStringLiteral("--force")) &&
        !arguments.contains(QStringLiteral("--skip-conflicts")))
        arguments.append(QStringLiteral("--force"));
    if (verifies && !arguments.contains(QStringLiteral("--verify-for")))
        arguments += {QStringLiteral("--verify-for"), QStringLiteral("0")};
    return arguments;
}

ProcessResult kafkaConsumerGroups(const QStringList& arguments, const QString& bootstrap) {
    return runKafkaTool(QStringLiteral("kafka-consumer-groups"),
                        QStringList{QStringLiteral("--bootstrap-server"), orTestBroker(bootstrap)} +
                            arguments);
}

ProcessResult seedGroups(const QString& bootstrap, int groups, int partitions, int topics,
                         const QString& prefix) {
    // 100,000 groups take about two minutes; the bound is for a loaded machine.
    return run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-seed-groups"),
               {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--groups"),
                QString::number(groups), QStringLiteral("--partitions"),
                QString::number(partitions), QStringLiteral("--topics"), QString::number(topics),
                QStringLiteral("--prefix"), prefix},
               {}, std::chrono::minutes(40));
}

bool commitOffsets(const QString& group, const QString& topic, const QList<int>& offsets,
                   const QString& metadataPrefix, const QString& bootstrap) {
    QString entries;
    for (qsizetype partition = 0; partition < offsets.size(); ++partition)
        entries += QStringLiteral("TopicPartition('%1', %2): OffsetAndMetadata(%3, '%4'), ")
                       .arg(topic)
                       .arg(partition)
                       .arg(offsets[partition])
                       .arg(metadataPrefix.isEmpty() ? QString()
                                                     : metadataPrefix + QString::number(partition));
    const auto result = runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
consumer = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
consumer.commit({%2})
consumer.close()
)")
                                      .arg(group, entries),
                                  std::chrono::seconds(120), bootstrap);
    if (!result.ok())
        qWarning("commit failed: %s", result.err.constData());
    return result.ok();
}

namespace {

// A number of Kafka's tool's table; absent for "-" (or anything that is not a number).
std::optional<qint64> toolNumber(const QByteArray& cell) {
    bool isNumber = false;
    const qint64 value = cell.toLongLong(&isNumber);
    return isNumber ? std::optional<qint64>(value) : std::nullopt;
}

} // namespace

std::optional<QList<KafkaDescribeRow>> describedByKafka(const QString& group,
                                                        const QString& bootstrap) {
    const auto result = kafkaConsumerGroups(
        {QStringLiteral("--describe"), QStringLiteral("--group"), group}, bootstrap);
    if (!result.ok())
        return std::nullopt;
    // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
    QList<KafkaDescribeRow> rows;
    for (const QByteArray& line : result.out.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        const std::optional<qint64> partition =
            fields.size() >= 6 ? toolNumber(fields[2]) : std::nullopt;
        if (!partition || fields[0] != group.toUtf8())
            continue;
        rows.append({QString::fromUtf8(fields[1]), int(*partition), toolNumber(fields[3]),
                     toolNumber(fields[4]), toolNumber(fields[5])});
    }
    return rows;
}

QMap<QString, QString> kafkaDescribeOffsetRows(const QByteArray& output,
                                               const QString& groupPrefix) {
    QMap<QString, QString> rows;
    for (const QByteArray& line : output.split('\n')) {
        const QStringList cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
        if (cells.size() != 9 || !cells[0].startsWith(groupPrefix))
            continue;
        rows.insert(QStringList{cells[0], cells[1], cells[2]}.join(u' '),
                    QStringList{cells[3], cells[4], cells[5]}.join(u' '));
    }
    return rows;
}

qlonglong lagReportedByKafka(const QString& group, const QString& bootstrap) {
    const auto rows = describedByKafka(group, bootstrap);
    if (!rows)
        return -1;
    qlonglong total = 0;
    bool sawRow = false;
    for (const KafkaDescribeRow& row : *rows) {
        if (row.lag) {
            total += *row.lag;
            sawRow = true;
        }
    }
    return sawRow ? total : -1;
}

QMap<int, qlonglong> committedOffsetsByKafka(const QString& group, const QString& topic,
                                             const QString& bootstrap) {
    const auto result = runPython(QStringLiteral(R"(
from kafka import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
for tp, meta in sorted(admin.list_consumer_group_offsets('%1').items()):
    if tp.topic == '%2':
        print(tp.partition, meta.offset)
admin.close()
)")
                                      .arg(group, topic),
                                  std::chrono::seconds(120), bootstrap);
    QMap<int, qlonglong> offsets;
    if (!result.ok()) {
        qWarning("reading offsets failed: %s", result.err.constData());
        return offsets;
    }
    for (const QByteArray& line : result.out.split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(' ');
        if (fields.size() == 2)
            offsets.insert(fields[0].toInt(), fields[1].toLongLong());
    }
    return offsets;
}

qlonglong offsetForTimestamp(const QString& topic, int partition, qint64 timestampMs,
                             const QString& bootstrap) {
    const auto result = runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
consumer = KafkaConsumer(bootstrap_servers=BOOTSTRAP)
tp = TopicPartition('%1', %2)
found = consumer.offsets_for_times({tp: %3})[tp]
print(found.offset if found is not None else consumer.end_offsets([tp])[tp])
consumer.close()
)")
                                      .arg(topic)
                                      .arg(partition)
                                      .arg(timestampMs),
                                  std::chrono::seconds(120), bootstrap);
    bool ok = false;
    const qlonglong offset = result.out.trimmed().toLongLong(&ok);
    if (!result.ok() || !ok) {
        qWarning("offsets_for_times failed: %s", result.err.constData());
        return -1;
    }
    return offset;
}

int coordinatorReportedByKafka(const QString& group, const QString& bootstrap) {
    const auto result = kafkaConsumerGroups(
        {QStringLiteral("--describe"), QStringLiteral("--group"), group, QStringLiteral("--state")},
        bootstrap);
    if (!result.ok())
        return -1;
    // GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS, the id as "(2)".
    for (const QByteArray& line : result.out.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 3 || fields[0] != group.toUtf8() || !fields[2].startsWith('(') ||
            !fields[2].endsWith(')'))
            continue;
        if (const auto id = toolNumber(fields[2].mid(1, fields[2].size() - 2)); id && *id >= 0)
            return int(*id);
    }
    return -1;
}

bool createTopic(const QString& topic, int partitions, const QString& bootstrap,
                 int replicationFactor) {
    const auto result = runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient, NewTopic
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
admin.create_topics([NewTopic(name='%1', num_partitions=%2, replication_factor=%3)])
admin.close()
)")
                                      .arg(topic)
                                      .arg(partitions)
                                      .arg(replicationFactor),
                                  std::chrono::seconds(120), bootstrap);
    if (!result.ok()) {
        qWarning("createTopic %s failed: %s", qPrintable(topic), result.err.constData());
        return false;
    }
    return waitFor([&] {
        const auto metadata =
            run(QStringLiteral("kcat"),
                {QStringLiteral("-b"), orTestBroker(bootstrap), QStringLiteral("-L"),
                 QStringLiteral("-t"), topic, QStringLiteral("-m"), QStringLiteral("5")});
        return metadata.ok() && metadata.out.count(" partition ") >= partitions &&
               !metadata.out.contains("Leader not available");
    });
}

bool produce(const QString& topic, int count, int partition, const QString& bootstrap) {
    QByteArray input;
    for (int i = 0; i < count; ++i)
        input += QByteArray::number(i) + ':' + "message-" + QByteArray::number(i) + '\n';
    QStringList arguments{QStringLiteral("-P"),
                          QStringLiteral("-b"),
                          orTestBroker(bootstrap),
                          QStringLiteral("-t"),
                          topic,
                          QStringLiteral("-K:")};
    if (partition >= 0)
        arguments << QStringLiteral("-p") << QString::number(partition);
    const auto result = run(QStringLiteral("kcat"), arguments, input);
    if (!result.ok())
        qWarning("kcat produce to %s failed: %s", qPrintable(topic), result.err.constData());
    return result.ok();
}

namespace {
const char* const groupMemberScript = R"(
import select, sys
from kafka import KafkaConsumer
from kafka.structs import OffsetAndMetadata
topic, group, client, commit = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == '1'
c = KafkaConsumer(topic, bootstrap_servers=BOOTSTRAP, group_id=group, client_id=client,
                  enable_auto_commit=False, auto_offset_reset='earliest')
seen = None
while True:
    c.poll(timeout_ms=200, max_records=1)
    assignment = sorted(c.assignment())
    if assignment and assignment != seen:
        if commit:
            c.commit({tp: OffsetAndMetadata(tp.partition + 1, None) for tp in assignment})
        seen = assignment
        print('assigned', ' '.join('%s:%d' % (tp.topic, tp.partition) for tp in assignment), flush=True)
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    if readable and not sys.stdin.readline():
        break
c.close()
)";
} // namespace

PythonGroupMember::PythonGroupMember(const QString& topic, const QString& group,
                                     const QString& clientId, bool commitOnAssign)
    : m_process(std::make_unique<QProcess>()) {
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const QString prelude = QStringLiteral("BOOTSTRAP = '%1'\n").arg(bootstrapServers());
    m_process->start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral("-c"), prelude + QString::fromUtf8(groupMemberScript), topic,
                      group, clientId, commitOnAssign ? QStringLiteral("1") : QStringLiteral("0")});
}

PythonGroupMember::~PythonGroupMember() {
    if (m_process->state() != QProcess::NotRunning && !leave())
        m_process->kill();
}

bool PythonGroupMember::waitUntilAssigned(std::chrono::milliseconds timeout) {
    return waitFor(
        [&] {
            return m_assigned =
                       m_assigned || m_process->readAllStandardOutput().contains("assigned");
        },
        timeout);
}

bool PythonGroupMember::leave(std::chrono::milliseconds timeout) {
    m_process->closeWriteChannel();
    return m_process->waitForFinished(int(timeout.count()));
}

TestBedDirectory::~TestBedDirectory() {
    stop();
}

bool TestBedDirectory::start(const QStringList& startOptions, const char* existingVariable,
                             const QString& what, std::chrono::milliseconds timeout) {
    const QString existing = qEnvironmentVariable(existingVariable);
    if (!existing.isEmpty()) {
        m_directory = existing;
        const auto status = broker(QStringLiteral("status"));
        if (!status.ok())
            m_error = QStringLiteral("no %1 runs in %2: %3")
                          .arg(what, existing, QString::fromUtf8(status.err));
        return status.ok();
    }
    m_temporary = std::make_unique<QTemporaryDir>();
    if (!m_temporary->isValid()) {
        m_error = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    m_directory = m_temporary->path();
    // The script has its own start-up deadline; ours bounds the whole run (jars, formatting,
    // certificates, ACLs).
    const auto started = broker(QStringLiteral("start"),
                                startOptions + QStringList{QStringLiteral("--timeout"),
                                                           QString::number(timeout.count() / 1000)},
                                timeout + std::chrono::seconds(30));
    m_ownsBrokers = true;
    if (!started.ok()) {
        m_error = QStringLiteral("the %1 did not start: %2 %3")
                      .arg(what, QString::fromUtf8(started.out), QString::fromUtf8(started.err));
        return false;
    }
    return true;
}

void TestBedDirectory::stop() {
    if (!m_ownsBrokers)
        return;
    m_ownsBrokers = false;
    broker(QStringLiteral("stop"));
}

ProcessResult TestBedDirectory::broker(const QString& command, const QStringList& arguments,
                                       std::chrono::milliseconds timeout) const {
    return run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/broker"),
               QStringList{command} + arguments + QStringList{QStringLiteral("--dir"), m_directory},
               {}, timeout);
}

QString TestBedDirectory::firstLineOf(const QString& relativePath) const {
    QFile file(m_directory + QLatin1Char('/') + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readLine()).trimmed();
}

SecureBroker::~SecureBroker() {
    stop();
}

bool SecureBroker::start(std::chrono::milliseconds timeout) {
    return m_bed.start({QStringLiteral("--secure")}, "GROUPSCOPE_TEST_SECURE_BROKER_DIR",
                       QStringLiteral("secure broker"), timeout);
}

void SecureBroker::stop() {
    m_bed.stop();
}

QString SecureBroker::bootstrap() const {
    return m_bed.firstLineOf(QStringLiteral("bootstrap"));
}

QString SecureBroker::internalBootstrap() const {
    return m_bed.firstLineOf(QStringLiteral("bootstrap-internal"));
}

QString SecureBroker::clientConfig(const QString& user) const {
    return directory() + QStringLiteral("/clients/%1.properties").arg(user);
}

QString SecureBroker::javaClientConfig(const QString& user) const {
    return directory() + QStringLiteral("/clients/%1.java.properties").arg(user);
}

QString SecureBroker::clientProperty(const QString& user, const QString& key) const {
    QFile file(clientConfig(user));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString prefix = key + QLatin1Char('=');
    for (const QByteArray& line : file.readAll().split('\n'))
        if (const QString text = QString::fromUtf8(line).trimmed(); text.startsWith(prefix))
            return text.mid(prefix.size());
    return {};
}

KafkaCluster::~KafkaCluster() {
    stop();
}

bool KafkaCluster::start(std::chrono::milliseconds timeout) {
    return m_bed.start({QStringLiteral("--nodes"), QString::number(nodeCount)},
                       "GROUPSCOPE_TEST_CLUSTER_DIR", QStringLiteral("cluster"), timeout);
}

void KafkaCluster::stop() {
    // A cluster that was already running is left as it was found.
    if (!m_bed.ownsBrokers())
        for (int node : std::as_const(m_stoppedNodes))
            restartNode(node);
    m_stoppedNodes.clear();
    m_bed.stop();
}

QString KafkaCluster::bootstrap() const {
    return m_bed.firstLineOf(QStringLiteral("bootstrap"));
}

QString KafkaCluster::nodeAddress(int node) const {
    return m_bed.firstLineOf(QStringLiteral("node%1/bootstrap").arg(node));
}

QString KafkaCluster::runningBootstrap() const {
    QStringList addresses;
    for (int node = 1; node <= nodeCount; ++node)
        if (isNodeRunning(node))
            addresses.append(nodeAddress(node));
    return addresses.join(QLatin1Char(','));
}

bool KafkaCluster::stopNode(int node) {
    const auto stopped =
        m_bed.broker(QStringLiteral("stop"), {QStringLiteral("--node"), QString::number(node)});
    if (!stopped.ok())
        qWarning("stopping node %d failed: %s", node, stopped.err.constData());
    if (!m_stoppedNodes.contains(node))
        m_stoppedNodes.append(node);
    return stopped.ok() && !isNodeRunning(node);
}

bool KafkaCluster::restartNode(int node, std::chrono::milliseconds timeout) {
    const auto restarted =
        m_bed.broker(QStringLiteral("restart"),
                     {QStringLiteral("--node"), QString::number(node), QStringLiteral("--timeout"),
                      QString::number(timeout.count() / 1000)},
                     timeout + std::chrono::seconds(30));
    if (!restarted.ok()) {
        qWarning("restarting node %d failed: %s", node, restarted.err.constData());
        return false;
    }
    m_stoppedNodes.removeAll(node);
    return true;
}

ProcessResult KafkaCluster::electPreferredLeaders() const {
    return m_bed.broker(QStringLiteral("elect-leaders"));
}

bool KafkaCluster::isNodeRunning(int node) const {
    return m_bed.broker(QStringLiteral("status"), {QStringLiteral("--node"), QString::number(node)})
        .ok();
}

quint16 freeLoopbackPort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

bool waitFor(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeout.count())
            return false;
        // Run the event loop between polls so queued signals arrive while we wait.
        QEventLoop pause;
        QTimer::singleShot(50, &pause, &QEventLoop::quit);
        pause.exec();
    }
    return true;
}

SilentListener::SilentListener() {
    m_process.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral(R"(
import socket
server = socket.socket()
server.bind(('127.0.0.1', 0))
server.listen(512)
print(server.getsockname()[1], flush=True)
held = []
while True:
    held.append(server.accept()[0])
)")});
    if (!m_process.waitForStarted())
        return;
    if (waitFor([&] { return m_process.canReadLine() || m_process.waitForReadyRead(100); }))
        m_address =
            QStringLiteral("127.0.0.1:") + QString::fromUtf8(m_process.readLine().trimmed());
}

SilentListener::~SilentListener() {
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

} // namespace groupscope::test
