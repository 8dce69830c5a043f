#include "GroupMembers.h"

#include "KafkaToolServer.h"

#include <QTemporaryFile>

namespace groupscope::test {

namespace {

QString testBroker(const QString& bootstrap) {
    return bootstrap.isEmpty() ? bootstrapServers() : bootstrap;
}

} // namespace

ProcessResult kafkaTool(const QString& name, const QStringList& arguments,
                        const QString& bootstrap) {
    return runKafkaTool(
        name, QStringList{QStringLiteral("--bootstrap-server"), testBroker(bootstrap)} + arguments);
}

ProcessResult deleteRecordsBefore(const QString& topic, int partition, qint64 offset) {
    QTemporaryFile offsets;
    if (!offsets.open())
        return {};
    offsets.write(
        QStringLiteral(R"({"partitions":[{"topic":"%1","partition":%2,"offset":%3}],"version":1})")
            .arg(topic)
            .arg(partition)
            .arg(offset)
            .toUtf8());
    offsets.flush();
    return kafkaTool(QStringLiteral("kafka-delete-records"),
                     {QStringLiteral("--offset-json-file"), offsets.fileName()});
}

JavaGroupMember::JavaGroupMember(const QString& program, const QStringList& arguments)
    : m_process(std::make_unique<QProcess>()) {
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // Kept (the streams app's states are read from it), so the pipe never fills either.
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, m_process.get(),
                     [this] { m_output += m_process->readAllStandardOutput(); });
    m_process->start(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/") + program, arguments);
}

JavaGroupMember::~JavaGroupMember() {
    if (m_process->state() != QProcess::NotRunning && !leave())
        m_process->kill();
    m_process->waitForFinished(5000);
}

bool JavaGroupMember::leave(std::chrono::milliseconds timeout) {
    m_process->terminate();
    return m_process->waitForFinished(int(timeout.count()));
}

bool JavaGroupMember::isRunning() const {
    return m_process->state() != QProcess::NotRunning;
}

ConsumerProtocolMember::ConsumerProtocolMember(const QString& topic, const QString& group,
                                               const QString& clientId, bool autoCommit,
                                               const QString& bootstrap)
    // --command-property: 4.4's --consumer-property prints a deprecation notice on stdout.
    : JavaGroupMember(
          QStringLiteral("kafka-console-consumer"),
          {QStringLiteral("--bootstrap-server"), testBroker(bootstrap), QStringLiteral("--topic"),
           topic, QStringLiteral("--group"), group, QStringLiteral("--command-property"),
           QStringLiteral("group.protocol=consumer"), QStringLiteral("--command-property"),
           QStringLiteral("client.id=") + clientId, QStringLiteral("--command-property"),
           QStringLiteral("enable.auto.commit=") +
               (autoCommit ? QStringLiteral("true") : QStringLiteral("false"))})
    , m_group(group)
    , m_clientId(clientId)
    , m_bootstrap(testBroker(bootstrap)) {}

bool ConsumerProtocolMember::waitUntilAssigned(int partitions, std::chrono::milliseconds timeout) {
    return waitFor(
        [&] {
            if (!isRunning())
                return false;
            const auto members =
                kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"),
                                     m_group, QStringLiteral("--members")},
                                    m_bootstrap);
            // GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS
            for (const QByteArray& line : members.out.split('\n')) {
                const QList<QByteArray> fields = line.simplified().split(' ');
                if (fields.size() >= 5 && fields.at(3) == m_clientId.toUtf8() &&
                    fields.at(4).toInt() == partitions)
                    return true;
            }
            return false;
        },
        timeout);
}

ShareGroupMember::ShareGroupMember(const QString& topic, const QString& group,
                                   const QString& bootstrap)
    : JavaGroupMember(QStringLiteral("kafka-console-share-consumer"),
                      {QStringLiteral("--bootstrap-server"), testBroker(bootstrap),
                       QStringLiteral("--topic"), topic, QStringLiteral("--group"), group})
    , m_group(group)
    , m_bootstrap(testBroker(bootstrap)) {}

bool ShareGroupMember::waitUntilAssigned(int partitions, std::chrono::milliseconds timeout) {
    return waitFor(
        [&] {
            if (!isRunning())
                return false;
            const ProcessResult members =
                kafkaTool(QStringLiteral("kafka-share-groups"),
                          {QStringLiteral("--describe"), QStringLiteral("--group"), m_group,
                           QStringLiteral("--members")},
                          m_bootstrap);
            // GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT
            for (const QByteArray& line : members.out.split('\n')) {
                const QList<QByteArray> fields = line.simplified().split(' ');
                if (fields.size() >= 6 && fields.at(0) == m_group.toUtf8() &&
                    fields.at(4).toInt() == partitions)
                    return true;
            }
            return false;
        },
        timeout);
}

StreamsAppMember::StreamsAppMember(const QString& applicationId, const QString& input,
                                   const QString& output, const QString& clientId,
                                   const QString& bootstrap)
    : JavaGroupMember(QStringLiteral("kafka-streams-app"),
                      {QStringLiteral("--bootstrap-server"), testBroker(bootstrap),
                       QStringLiteral("--application-id"), applicationId, QStringLiteral("--input"),
                       input, QStringLiteral("--output"), output, QStringLiteral("--client-id"),
                       clientId}) {}

bool StreamsAppMember::waitUntilRunning(std::chrono::milliseconds timeout) {
    return waitFor(
        [&] {
            m_process->waitForReadyRead(200); // delivers its output to this thread
            return output().contains("state=RUNNING");
        },
        timeout);
}

} // namespace groupscope::test
