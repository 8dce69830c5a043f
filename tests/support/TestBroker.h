#pragma once
// Helpers for tests that run against the real Kafka broker of the test bed, and for
// driving the independent clients (python3-kafka, kcat, Kafka's own tools) as oracles.

#include "kafka/ConnectionProfile.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::test {

// The broker's bootstrap address: GROUPSCOPE_TEST_BOOTSTRAP, else the fixture broker's
// recorded address. Empty (and a QSKIP-worthy reason in *why) when there is none.
QString bootstrapServers(QString* why = nullptr);
kafka::ConnectionProfile brokerProfile();

// A name unique to this test run, for topics and groups, so tests never share state.
QString uniqueName(const QString& prefix);

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool ok() const { return exitCode == 0; }
};

// Runs a program to completion (bounded by timeout) with optional stdin.
ProcessResult run(const QString& program, const QStringList& arguments,
                  const QByteArray& input = {},
                  std::chrono::milliseconds timeout = std::chrono::seconds(120));

// Runs a python3-kafka script with Debian's python3 (which has the kafka module).
// The script sees the bootstrap address as the variable BOOTSTRAP: `bootstrap`, or the
// test broker's when empty. The same holds for the `bootstrap` parameters below.
ProcessResult runPython(const QString& script,
                        std::chrono::milliseconds timeout = std::chrono::seconds(120),
                        const QString& bootstrap = {});

// Kafka's own kafka-consumer-groups from the test bed, pointed at the test broker.
ProcessResult kafkaConsumerGroups(const QStringList& arguments, const QString& bootstrap = {});

// Creates a topic with python3-kafka and waits until its metadata is visible.
bool createTopic(const QString& topic, int partitions, const QString& bootstrap = {});

// Produces `count` messages spread over the topic's partitions with kcat (key = index).
bool produce(const QString& topic, int count, int partition = -1, const QString& bootstrap = {});

// Commits offsets[i] on partition i of `topic` for `group` with python3-kafka, without
// joining the group. Each commit's metadata is `metadataPrefix` + partition, or empty.
bool commitOffsets(const QString& group, const QString& topic, const QList<int>& offsets,
                   const QString& metadataPrefix = {});

// The sum of the LAG column kafka-consumer-groups --describe prints for `group`; -1 when
// the tool fails or shows no partition with a lag.
qlonglong lagReportedByKafka(const QString& group);

// A broker of its own with a SASL_SSL listener, users and ACLs (`tests/kafka/broker start
// --secure`; tests/kafka/secure.sh lists the users and what each may do), for one test
// program. GROUPSCOPE_TEST_SECURE_BROKER_DIR names one that already runs (kept running).
class SecureBroker {
public:
    SecureBroker() = default;
    ~SecureBroker(); // stops the broker it started
    SecureBroker(const SecureBroker&) = delete;
    SecureBroker& operator=(const SecureBroker&) = delete;

    // Starts the broker within `timeout`; false with error() saying why.
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(240));
    void stop();
    QString error() const { return m_error; }

    QString directory() const { return m_directory; }
    // The SASL_SSL listener, for the clients under test.
    QString bootstrap() const;
    // The PLAINTEXT listener, whose anonymous user is a super user: for test set-up only.
    QString internalBootstrap() const;
    // A user's librdkafka properties (for --command-config) and Java properties (for
    // Kafka's own tools).
    QString clientConfig(const QString& user) const;
    QString javaClientConfig(const QString& user) const;
    // One property of a user's librdkafka properties, e.g. sasl.password.
    QString clientProperty(const QString& user, const QString& key) const;
    QString caFile() const { return m_directory + QStringLiteral("/tls/ca.pem"); }
    // A CA that signed nothing of this broker's: a client trusting only it must fail.
    QString untrustedCaFile() const { return m_directory + QStringLiteral("/tls/other-ca.pem"); }

private:
    QString m_directory;
    QString m_error;
    bool m_ownsBroker = false;
    std::unique_ptr<QTemporaryDir> m_temporary;
};

// A live member of a consumer group: python3-kafka subscribed to a topic, polling (so it
// takes part in rebalances) until it is told to leave. With commitOnAssign it commits
// partition+1 on each partition it is assigned, so its commits are known to the test.
class PythonGroupMember {
public:
    PythonGroupMember(const QString& topic, const QString& group, const QString& clientId,
                      bool commitOnAssign = false);
    ~PythonGroupMember(); // leaves the group
    PythonGroupMember(const PythonGroupMember&) = delete;
    PythonGroupMember& operator=(const PythonGroupMember&) = delete;

    // True once it has been assigned partitions (and committed them, with commitOnAssign).
    bool waitUntilAssigned(std::chrono::milliseconds timeout = std::chrono::seconds(60));
    // Closes the consumer properly (LeaveGroup); true when the process ended in time.
    bool leave(std::chrono::milliseconds timeout = std::chrono::seconds(20));

private:
    std::unique_ptr<QProcess> m_process;
    bool m_assigned = false;
};

// Polls `condition` until it holds or `timeout` passes; true when it held.
bool waitFor(const std::function<bool()>& condition,
             std::chrono::milliseconds timeout = std::chrono::seconds(30));

} // namespace groupscope::test
