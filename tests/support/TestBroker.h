#pragma once
// Helpers for tests that run against the real Kafka broker of the test bed, and for
// driving the independent clients (python3-kafka, kcat, Kafka's own tools) as oracles.

#include "kafka/ConnectionProfile.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

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
// The script sees the bootstrap address as the variable BOOTSTRAP.
ProcessResult runPython(const QString& script,
                        std::chrono::milliseconds timeout = std::chrono::seconds(120));

// Kafka's own kafka-consumer-groups from the test bed, pointed at the test broker.
ProcessResult kafkaConsumerGroups(const QStringList& arguments);

// Creates a topic with python3-kafka and waits until its metadata is visible.
bool createTopic(const QString& topic, int partitions);

// Produces `count` messages spread over the topic's partitions with kcat (key = index).
bool produce(const QString& topic, int count, int partition = -1);

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
