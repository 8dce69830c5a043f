#pragma once
// Independent members of consumer, share and streams groups for tests, run from the test bed's
// Java programs: Kafka's own console consumers (KIP-848, KIP-932) and a small Kafka Streams
// application (KIP-1071, tests/kafka/kafka-streams-app). Nobody here wrote their clients.

#include "TestBroker.h"

#include <QProcess>

#include <chrono>
#include <memory>

namespace groupscope::test {

// One of the test bed's Kafka tools (tests/kafka/NAME) pointed at `bootstrap` (the test
// broker when empty): kafka-groups, kafka-share-groups, kafka-streams-groups, ... Asked
// through the test program's one JVM for Kafka's tools (KafkaToolServer.h).
ProcessResult kafkaTool(const QString& name, const QStringList& arguments,
                        const QString& bootstrap = {});
// Moves `topic`:`partition`'s log start to `offset` with Kafka's kafka-delete-records, as
// retention would.
ProcessResult deleteRecordsBefore(const QString& topic, int partition, qint64 offset);

// A process of the test bed that is a member of a group until it is told to leave.
class JavaGroupMember {
public:
    ~JavaGroupMember(); // leaves the group
    JavaGroupMember(const JavaGroupMember&) = delete;
    JavaGroupMember& operator=(const JavaGroupMember&) = delete;

    // SIGTERM: the program closes its client, which leaves the group; true when the
    // process ended in time.
    bool leave(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    bool isRunning() const;

protected:
    JavaGroupMember(const QString& program, const QStringList& arguments);
    // Everything it printed on stdout so far.
    const QByteArray& output() const { return m_output; }

    std::unique_ptr<QProcess> m_process;
    QByteArray m_output;
};

// A live member of a consumer group of the new protocol (KIP-848): Kafka's own Java
// console consumer with group.protocol=consumer, subscribed to a topic until it is told to
// leave. Its records go nowhere; with autoCommit off it never commits, so the group's
// offsets stay what the test set.
class ConsumerProtocolMember : public JavaGroupMember {
public:
    ConsumerProtocolMember(const QString& topic, const QString& group, const QString& clientId,
                           bool autoCommit = false, const QString& bootstrap = {});
    // True once Kafka's tool shows this member (its client id) owning `partitions`
    // partitions of the group.
    bool waitUntilAssigned(int partitions,
                           std::chrono::milliseconds timeout = std::chrono::seconds(90));

private:
    QString m_group;
    QString m_clientId;
    QString m_bootstrap;
};

// Kafka's console share consumer in share group `group` on `topic`.
class ShareGroupMember : public JavaGroupMember {
public:
    ShareGroupMember(const QString& topic, const QString& group, const QString& bootstrap = {});
    // True once kafka-share-groups shows a member of the group owning `partitions`.
    bool waitUntilAssigned(int partitions,
                           std::chrono::milliseconds timeout = std::chrono::seconds(90));

private:
    QString m_group;
    QString m_bootstrap;
};

// The test bed's Kafka Streams word count, application (group) id `applicationId`.
class StreamsAppMember : public JavaGroupMember {
public:
    StreamsAppMember(const QString& applicationId, const QString& input, const QString& output,
                     const QString& clientId, const QString& bootstrap = {});
    // True once Kafka Streams reports RUNNING (the member has its tasks).
    bool waitUntilRunning(std::chrono::milliseconds timeout = std::chrono::seconds(120));
};

} // namespace groupscope::test
