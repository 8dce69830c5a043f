#include "TestBroker.h"

#include "kafka/AdminClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTimer>
#include <QUuid>

namespace groupscope::test {

QString bootstrapServers(QString* why) {
    const QString external = qEnvironmentVariable("GROUPSCOPE_TEST_BOOTSTRAP");
    if (!external.isEmpty())
        return external;
    const QString dir = qEnvironmentVariable("GROUPSCOPE_TEST_BROKER_DIR");
    QFile file(dir + QStringLiteral("/bootstrap"));
    if (dir.isEmpty() || !file.open(QIODevice::ReadOnly)) {
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

ProcessResult kafkaConsumerGroups(const QStringList& arguments, const QString& bootstrap) {
    return run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-consumer-groups"),
               QStringList{QStringLiteral("--bootstrap-server"), orTestBroker(bootstrap)} +
                   arguments);
}

bool commitOffsets(const QString& group, const QString& topic, const QList<int>& offsets,
                   const QString& metadataPrefix) {
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
                                      .arg(group, entries));
    if (!result.ok())
        qWarning("commit failed: %s", result.err.constData());
    return result.ok();
}

qlonglong lagReportedByKafka(const QString& group) {
    const auto result =
        kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"), group});
    if (!result.ok())
        return -1;
    qlonglong total = 0;
    bool sawRow = false;
    for (const QByteArray& line : result.out.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 6 && fields[0] == group.toUtf8() && fields[5] != "-") {
            total += fields[5].toLongLong();
            sawRow = true;
        }
    }
    return sawRow ? total : -1;
}

bool createTopic(const QString& topic, int partitions, const QString& bootstrap) {
    const auto result = runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient, NewTopic
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
admin.create_topics([NewTopic(name='%1', num_partitions=%2, replication_factor=1)])
admin.close()
)")
                                      .arg(topic)
                                      .arg(partitions),
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

SecureBroker::~SecureBroker() {
    stop();
}

bool SecureBroker::start(std::chrono::milliseconds timeout) {
    const QString script = QStringLiteral(GROUPSCOPE_TESTBED_DIR "/broker");
    const QString existing = qEnvironmentVariable("GROUPSCOPE_TEST_SECURE_BROKER_DIR");
    if (!existing.isEmpty()) {
        m_directory = existing;
        const auto status =
            run(script, {QStringLiteral("status"), QStringLiteral("--dir"), existing});
        if (!status.ok())
            m_error = QStringLiteral("no secure broker runs in %1: %2")
                          .arg(existing, QString::fromUtf8(status.err));
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
    const auto started =
        run(script,
            {QStringLiteral("start"), QStringLiteral("--secure"), QStringLiteral("--dir"),
             m_directory, QStringLiteral("--timeout"), QString::number(timeout.count() / 1000)},
            {}, timeout + std::chrono::seconds(30));
    m_ownsBroker = true;
    if (!started.ok()) {
        m_error = QStringLiteral("the secure broker did not start: %1 %2")
                      .arg(QString::fromUtf8(started.out), QString::fromUtf8(started.err));
        return false;
    }
    return true;
}

void SecureBroker::stop() {
    if (!m_ownsBroker)
        return;
    m_ownsBroker = false;
    run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/broker"),
        {QStringLiteral("stop"), QStringLiteral("--dir"), m_directory}, {},
        std::chrono::seconds(60));
}

namespace {

QString firstLine(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readLine()).trimmed();
}

} // namespace

QString SecureBroker::bootstrap() const {
    return firstLine(m_directory + QStringLiteral("/bootstrap"));
}

QString SecureBroker::internalBootstrap() const {
    return firstLine(m_directory + QStringLiteral("/bootstrap-internal"));
}

QString SecureBroker::clientConfig(const QString& user) const {
    return m_directory + QStringLiteral("/clients/%1.properties").arg(user);
}

QString SecureBroker::javaClientConfig(const QString& user) const {
    return m_directory + QStringLiteral("/clients/%1.java.properties").arg(user);
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

} // namespace groupscope::test
