#pragma once
// Helpers for tests that run against the real Kafka broker of the test bed, and for
// driving the independent clients (python3-kafka, kcat, Kafka's own tools) as oracles.

#include "kafka/ConnectionProfile.h"

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace groupscope::test {

// The broker's bootstrap address: GROUPSCOPE_TEST_BOOTSTRAP, else the fixture broker's
// recorded address. Empty (and a QSKIP-worthy reason in *why) when there is none.
QString bootstrapServers(QString* why = nullptr);
// In a Qt Test function: skips it, saying why, when there is no test broker.
#define SKIP_WITHOUT_TEST_BROKER()                                                                 \
    do {                                                                                           \
        QString noBrokerReason;                                                                    \
        if (groupscope::test::bootstrapServers(&noBrokerReason).isEmpty())                         \
            QSKIP(qPrintable(noBrokerReason));                                                     \
    } while (false)
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

// groupscope-cli arguments for a write (reset, undo or delete-offsets with --execute) made
// right after the test's own set-up commits (python3-kafka, which never joins the group):
// with --force, as a user who knows that committer has finished (the write would be refused
// as racing a consumer that still commits), and for reset and undo --verify-for 0 (no
// read-again after 5 s, which TestSafeWrites covers). Other arguments come back unchanged.
QStringList afterSetupCommits(QStringList arguments);

// Kafka's own kafka-consumer-groups from the test bed, pointed at the test broker, asked
// through the test program's one JVM for Kafka's tools (KafkaToolServer.h).
ProcessResult kafkaConsumerGroups(const QStringList& arguments, const QString& bootstrap = {});

// The test bed's kafka-seed-groups (Kafka's Java admin client): `topics` topics PREFIX-topic-K
// of `partitions` partitions with 100 records each, and `groups` groups PREFIX-group-NNNNNN,
// group G committed on every partition P of topic G % topics at (G + P) % 101.
ProcessResult seedGroups(const QString& bootstrap, int groups, int partitions, int topics,
                         const QString& prefix);

// Creates a topic with python3-kafka and waits until its metadata is visible.
bool createTopic(const QString& topic, int partitions, const QString& bootstrap = {},
                 int replicationFactor = 1);

// Produces `count` messages spread over the topic's partitions with kcat (key = index).
bool produce(const QString& topic, int count, int partition = -1, const QString& bootstrap = {});

// Commits offsets[i] on partition i of `topic` for `group` with python3-kafka, without
// joining the group. Each commit's metadata is `metadataPrefix` + partition, or empty.
bool commitOffsets(const QString& group, const QString& topic, const QList<int>& offsets,
                   const QString& metadataPrefix = {}, const QString& bootstrap = {});

// One partition row of kafka-consumer-groups --describe; a value printed as "-" is absent.
struct KafkaDescribeRow {
    QString topic;
    int partition = -1;
    std::optional<qint64> currentOffset;
    std::optional<qint64> logEndOffset;
    std::optional<qint64> lag;
};

// The partition rows kafka-consumer-groups --describe prints for `group`; nullopt when the
// tool fails.
std::optional<QList<KafkaDescribeRow>> describedByKafka(const QString& group,
                                                        const QString& bootstrap = {});

// The offset columns of kafka-consumer-groups --describe output, for every group whose id
// starts with `groupPrefix`: "GROUP TOPIC PARTITION" -> "CURRENT-OFFSET LOG-END-OFFSET LAG",
// as the tool prints them ("-" where it has no value).
QMap<QString, QString> kafkaDescribeOffsetRows(const QByteArray& output,
                                               const QString& groupPrefix);

// The sum of the LAG column kafka-consumer-groups --describe prints for `group`; -1 when
// the tool fails or shows no partition with a lag.
qlonglong lagReportedByKafka(const QString& group, const QString& bootstrap = {});

// The committed offsets of `group` on `topic` as python3-kafka's admin client reads them:
// partition -> offset (empty when the read fails). Nobody here wrote that client, so it
// checks what Groupscope wrote.
QMap<int, qlonglong> committedOffsetsByKafka(const QString& group, const QString& topic,
                                             const QString& bootstrap = {});

// The first offset of the partition whose record timestamp is at or after `timestampMs`,
// as python3-kafka's offsets_for_times finds it in the broker's time index; the log end
// when there is none; -1 when the lookup fails.
qlonglong offsetForTimestamp(const QString& topic, int partition, qint64 timestampMs,
                             const QString& bootstrap = {});

// The broker id of the group's coordinator, as kafka-consumer-groups --describe --state
// prints it (COORDINATOR (ID)); -1 when the tool fails or names none.
int coordinatorReportedByKafka(const QString& group, const QString& bootstrap = {});

// A directory of the test bed's broker script (tests/kafka/broker) that one test program
// starts for itself, or one that already runs, named by an environment variable (kept
// running). SecureBroker and KafkaCluster are built on it.
class TestBedDirectory {
public:
    TestBedDirectory() = default;
    ~TestBedDirectory(); // stops what it started
    TestBedDirectory(const TestBedDirectory&) = delete;
    TestBedDirectory& operator=(const TestBedDirectory&) = delete;

    // `broker start STARTOPTIONS --dir TEMPORARY` within `timeout`, or, when the variable
    // `existingVariable` names a directory, a check that what runs there answers `broker
    // status`. False with error() saying why; `what` names it there ("secure broker").
    bool start(const QStringList& startOptions, const char* existingVariable, const QString& what,
               std::chrono::milliseconds timeout);
    // `broker stop`, if start() started it.
    void stop();
    // `broker COMMAND ARGUMENTS --dir DIRECTORY`.
    ProcessResult broker(const QString& command, const QStringList& arguments = {},
                         std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;

    QString error() const { return m_error; }
    QString directory() const { return m_directory; }
    bool ownsBrokers() const { return m_ownsBrokers; }
    // The first line of a file in the directory (e.g. "bootstrap"); empty when unreadable.
    QString firstLineOf(const QString& relativePath) const;

private:
    QString m_directory;
    QString m_error;
    bool m_ownsBrokers = false;
    std::unique_ptr<QTemporaryDir> m_temporary;
};

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
    QString error() const { return m_bed.error(); }

    QString directory() const { return m_bed.directory(); }
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
    QString caFile() const { return directory() + QStringLiteral("/tls/ca.pem"); }
    // A CA that signed nothing of this broker's: a client trusting only it must fail.
    QString untrustedCaFile() const { return directory() + QStringLiteral("/tls/other-ca.pem"); }

private:
    TestBedDirectory m_bed;
};

// A cluster of its own for one test program: three KRaft nodes, each a broker and a
// controller voter (`tests/kafka/broker start --nodes 3`), with the internal topics
// replicated three times, so one node may be stopped and restarted while the others carry
// on (coordinator and leader moves). Node K is broker id K; nodes are numbered from 1.
// GROUPSCOPE_TEST_CLUSTER_DIR names one that already runs: it is kept running, and the
// nodes a test stopped are restarted when the KafkaCluster goes.
class KafkaCluster {
public:
    static constexpr int nodeCount = 3;

    KafkaCluster() = default;
    ~KafkaCluster(); // stops the cluster it started (restarts the nodes it stopped in another)
    KafkaCluster(const KafkaCluster&) = delete;
    KafkaCluster& operator=(const KafkaCluster&) = delete;

    // Starts the cluster within `timeout`; false with error() saying why.
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(240));
    void stop();
    QString error() const { return m_bed.error(); }
    QString directory() const { return m_bed.directory(); }

    // Every node's address, running or not, as a client configured for the cluster has it.
    QString bootstrap() const;
    // Node `node`'s address (127.0.0.1:PORT).
    QString nodeAddress(int node) const;
    // The addresses of the nodes that run now.
    QString runningBootstrap() const;
    static int nodeOfBrokerId(int brokerId) { return brokerId; }
    static int brokerIdOfNode(int node) { return node; }

    // Stops one node by its recorded pid (a controlled shutdown: its partitions' leadership
    // moves to the others); true when it no longer runs.
    bool stopNode(int node);
    // Starts a stopped node again on its ports and data; true once it answers and sees the
    // whole cluster.
    bool restartNode(int node, std::chrono::milliseconds timeout = std::chrono::seconds(120));
    bool isNodeRunning(int node) const;
    // Moves the leadership of every partition (__consumer_offsets' too, and with it group
    // coordination) back to its preferred replica, as Kafka's automatic leader rebalance
    // would minutes after a node returned (the cluster has it switched off).
    ProcessResult electPreferredLeaders() const;

private:
    TestBedDirectory m_bed;
    QList<int> m_stoppedNodes;
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

// A loopback port that accepts connections and never answers: a broker that hangs, or a
// port that is not Kafka's. Stopped when it goes.
class SilentListener {
public:
    SilentListener();
    ~SilentListener();
    SilentListener(const SilentListener&) = delete;
    SilentListener& operator=(const SilentListener&) = delete;

    // "127.0.0.1:PORT", or empty when the listener could not be started.
    QString address() const { return m_address; }

private:
    QProcess m_process;
    QString m_address;
};

// A TCP port on 127.0.0.1 that was free a moment ago (0 when none could be had), for a
// process the test starts to listen on.
quint16 freeLoopbackPort();

// Polls `condition` until it holds or `timeout` passes; true when it held.
bool waitFor(const std::function<bool()>& condition,
             std::chrono::milliseconds timeout = std::chrono::seconds(30));

} // namespace groupscope::test
