// Groupscope against a broker that authenticates (SASL SCRAM-SHA-512 and PLAIN over TLS)
// and authorises (ACLs): what each user may do works, what is denied says so clearly, and
// connection set-up failures (wrong password, untrusted certificate, host name mismatch)
// fail fast instead of waiting out the deadline, through Groupscope's own group client and
// through librdkafka alike. Kafka's own kafka-consumer-groups checks the same answers.
#include "TestSecuredBroker.h"

#include "kafka/ClientConf.h"
#include "kafka/GroupClientChoice.h"

#include <librdkafka/rdkafka.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;
using test::ProcessResult;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr int partitionCount = 3;
// A deadline no fail-fast path comes near; a call that waits it out fails the test.
constexpr std::chrono::milliseconds longTimeout = 60s;

QString text(const QByteArray& bytes) {
    return QString::fromUtf8(bytes);
}

// "topic:partition" -> committed offset, from `describe --json`.
QMap<QString, qint64> committedFromDescribeJson(const QByteArray& json) {
    QMap<QString, qint64> offsets;
    for (const QJsonValue& group : QJsonDocument::fromJson(json).array())
        for (const QJsonValue& value : group[QStringLiteral("partitions")].toArray()) {
            const QJsonObject row = value.toObject();
            if (!row[QStringLiteral("currentOffset")].isNull())
                offsets.insert(QStringLiteral("%1:%2")
                                   .arg(row[QStringLiteral("topic")].toString())
                                   .arg(row[QStringLiteral("partition")].toInt()),
                               row[QStringLiteral("currentOffset")].toInteger());
        }
    return offsets;
}

// "topic:partition" -> CURRENT-OFFSET, from Kafka's tool's --describe table.
QMap<QString, qint64> committedFromKafkaTool(const QByteArray& table, const QString& group) {
    QMap<QString, qint64> offsets;
    for (const QByteArray& line : table.split('\n')) {
        const QStringList cells =
            QString::fromUtf8(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        bool isNumber = false;
        if (cells.size() >= 4 && cells[0] == group && cells[3].toLongLong(&isNumber) >= 0 &&
            isNumber)
            offsets.insert(cells[1] + QLatin1Char(':') + cells[2], cells[3].toLongLong());
    }
    return offsets;
}

} // namespace

GroupClientOfRow::GroupClientOfRow(bool librdkafka)
    : m_librdkafka(librdkafka) {
    if (librdkafka)
        qputenv(kafka::GroupClientChoice::environmentVariable, "librdkafka");
    else
        qunsetenv(kafka::GroupClientChoice::environmentVariable);
}

GroupClientOfRow::~GroupClientOfRow() {
    qunsetenv(kafka::GroupClientChoice::environmentVariable);
}

void TestSecuredBroker::addClientRows() {
    QTest::addColumn<bool>("librdkafka");
    QTest::newRow("own client") << false;
    QTest::newRow("librdkafka") << true;
}

ProcessResult TestSecuredBroker::cli(const QString& configFile, const QStringList& arguments) {
    return test::run(cliPath, QStringList{QStringLiteral("--command-config"), configFile} +
                                  test::afterSetupCommits(arguments));
}

// A copy of the user's command config with `key=value` replacements and extra lines.
QString TestSecuredBroker::configWith(const QString& user, const QStringList& replacements,
                                      const QStringList& extraLines) {
    QFile source(m_broker.clientConfig(user));
    if (!source.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(source.readAll()).split(QLatin1Char('\n'));
    for (const QString& replacement : replacements) {
        const QString key = replacement.section(QLatin1Char('='), 0, 0);
        for (QString& line : lines)
            if (line.startsWith(key + QLatin1Char('=')))
                line = replacement;
    }
    return writeConfig(lines + extraLines);
}

QString TestSecuredBroker::writeConfig(const QStringList& lines) {
    const QString path =
        m_scratch.filePath(QStringLiteral("config-%1.properties").arg(++m_configCount));
    QFile target(path);
    if (!target.open(QIODevice::WriteOnly))
        return {};
    target.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    target.write(lines.join(QLatin1Char('\n')).toUtf8());
    return path;
}

std::unique_ptr<kafka::AdminClient> TestSecuredBroker::adminFor(const QString& config) {
    auto profile = kafka::ConnectionProfile::fromCommandConfigFile(config);
    if (!profile) {
        qWarning("%s", qPrintable(profile.error().message));
        return nullptr;
    }
    auto client = kafka::AdminClient::create(profile.value(), 20s);
    if (!client) {
        qWarning("%s", qPrintable(client.error().message));
        return nullptr;
    }
    // The group client the row asks for, and no other.
    const bool librdkafka =
        qEnvironmentVariableIsSet(kafka::GroupClientChoice::environmentVariable);
    if (client.value()->isFallback() != librdkafka) {
        qWarning("expected groups through %s: %s", librdkafka ? "librdkafka" : "the own client",
                 qPrintable(client.value()->fallbackNote()));
        return nullptr;
    }
    return std::move(client.value());
}

std::unique_ptr<kafka::AdminClient> TestSecuredBroker::admin(const QString& user) {
    return adminFor(m_broker.clientConfig(user));
}

void TestSecuredBroker::checkGroupIsRead(kafka::AdminClient& client) {
    const auto groups = client.listGroups();
    QVERIFY2(groups.ok(), qPrintable(groups.ok() ? QString() : groups.error().toString()));
    QVERIFY(std::any_of(
        groups.value().cbegin(), groups.value().cend(),
        [&](const kafka::GroupListing& listing) { return listing.groupId == m_group; }));
    const auto described = client.describeGroups({m_group});
    QVERIFY2(described.ok(), qPrintable(described.ok() ? QString() : described.error().toString()));
    QCOMPARE(described.value().size(), 1);
    QCOMPARE(described.value().first().state, kafka::GroupState::Empty);
    const auto committed = client.listCommittedOffsets({m_group});
    QVERIFY2(committed.ok(), qPrintable(committed.ok() ? QString() : committed.error().toString()));
    QCOMPARE(committed.value().value(m_group).size(), partitionCount);
}

QMap<QString, qint64> TestSecuredBroker::committedAsAlice() {
    const auto described = cli(
        m_broker.clientConfig(QStringLiteral("alice")),
        {QStringLiteral("describe"), QStringLiteral("--group"), m_group, QStringLiteral("--json")});
    return described.ok() ? committedFromDescribeJson(described.out) : QMap<QString, qint64>{};
}

void TestSecuredBroker::initTestCase() {
    QVERIFY(m_scratch.isValid());
    // Resets below write an audit log: keep it out of the user's data directory.
    qputenv("GROUPSCOPE_DATA_DIR", m_scratch.filePath(QStringLiteral("data")).toUtf8());
    QVERIFY2(m_broker.start(), qPrintable(m_broker.error()));
    QVERIFY(!m_broker.bootstrap().isEmpty());

    // Set-up goes through the internal listener, as the super user.
    m_topic = test::uniqueName(QStringLiteral("secured"));
    m_group = test::uniqueName(QStringLiteral("secured-group"));
    const QString internal = m_broker.internalBootstrap();
    QVERIFY(test::createTopic(m_topic, partitionCount, internal));
    for (int partition = 0; partition < partitionCount; ++partition)
        QVERIFY(test::produce(m_topic, 10, partition, internal));
    // Commit 2, 3, 4 on partitions 0, 1, 2: a group with offsets and no members.
    const auto committed = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', p): OffsetAndMetadata(p + 2, None) for p in range(%3)})
c.close()
)")
                                               .arg(m_group, m_topic)
                                               .arg(partitionCount),
                                           120s, internal);
    QVERIFY2(committed.ok(), committed.err.constData());
}

void TestSecuredBroker::cleanupTestCase() {
    m_broker.stop();
}

void TestSecuredBroker::verificationIsOnByDefault() {
    kafka::ConnectionProfile profile;
    profile.bootstrapServers = QStringLiteral("127.0.0.1:1");
    profile.securityProtocol = QStringLiteral("SASL_SSL");
    const auto properties = profile.toProperties();
    QVERIFY(properties.contains(
        {QStringLiteral("enable.ssl.certificate.verification"), QStringLiteral("true")}));
    QVERIFY(properties.contains(
        {QStringLiteral("ssl.endpoint.identification.algorithm"), QStringLiteral("https")}));
    QVERIFY(profile.verificationWarning().isEmpty());
    QVERIFY(kafka::makeConf(profile).ok());
    // Plaintext has nothing to verify, and nothing to warn about.
    profile.securityProtocol = QStringLiteral("SASL_PLAINTEXT");
    profile.tlsVerification = false;
    QVERIFY(profile.verificationWarning().isEmpty());
}

void TestSecuredBroker::commandConfigTurnsVerificationOffExplicitly() {
    const auto profile = kafka::ConnectionProfile::fromCommandConfigText(
        QStringLiteral("security.protocol=SSL\nenable.ssl.certificate.verification=false\n"),
        QStringLiteral("cfg"));
    QVERIFY(profile.ok());
    QVERIFY(!profile.value().tlsVerification);
    const auto properties = profile.value().toProperties();
    QVERIFY(properties.contains(
        {QStringLiteral("enable.ssl.certificate.verification"), QStringLiteral("false")}));
    QVERIFY(properties.contains(
        {QStringLiteral("ssl.endpoint.identification.algorithm"), QStringLiteral("none")}));
    QVERIFY2(profile.value().verificationWarning().contains(QStringLiteral("verification is off")),
             qPrintable(profile.value().verificationWarning()));
}

void TestSecuredBroker::hostNameCheckOffAloneIsWarnedAbout() {
    const auto profile = kafka::ConnectionProfile::fromCommandConfigText(
        QStringLiteral("security.protocol=SASL_SSL\nssl.endpoint.identification.algorithm=none\n"),
        QStringLiteral("cfg"));
    QVERIFY(profile.ok());
    QVERIFY(profile.value().tlsVerification);
    QVERIFY2(profile.value().verificationWarning().contains(QStringLiteral("host name")),
             qPrintable(profile.value().verificationWarning()));
}

void TestSecuredBroker::usersWithRightsListAndDescribe_data() {
    QTest::addColumn<QString>("user");
    QTest::addColumn<bool>("librdkafka");
    const std::pair<const char*, const char*> users[] = {
        {"SCRAM-SHA-512, client certificate", "alice"},
        {"PLAIN", "bob"},
        {"describe only, no offsets topic", "carol"},
        {"describe only, no alter", "dave"}};
    for (const bool librdkafka : {false, true})
        for (const auto& [name, user] : users)
            QTest::addRow("%s, %s", name, librdkafka ? "librdkafka" : "own client")
                << QString::fromLatin1(user) << librdkafka;
}

void TestSecuredBroker::usersWithRightsListAndDescribe() {
    QFETCH(QString, user);
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    auto client = admin(user);
    QVERIFY(client);
    checkGroupIsRead(*client);
}

void TestSecuredBroker::cliDescribesThroughEachMechanism_data() {
    QTest::addColumn<QString>("user");
    QTest::addColumn<bool>("librdkafka");
    QTest::newRow("SCRAM-SHA-512, own client") << QStringLiteral("alice") << false;
    QTest::newRow("PLAIN, own client") << QStringLiteral("bob") << false;
    QTest::newRow("SCRAM-SHA-512, librdkafka") << QStringLiteral("alice") << true;
    QTest::newRow("PLAIN, librdkafka") << QStringLiteral("bob") << true;
}

void TestSecuredBroker::cliDescribesThroughEachMechanism() {
    QFETCH(QString, user);
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    const auto listed = cli(m_broker.clientConfig(user), {QStringLiteral("list")});
    QVERIFY2(listed.ok(), listed.err.constData());
    QVERIFY(text(listed.out).split(QLatin1Char('\n')).contains(m_group));
    QVERIFY2(!listed.err.contains("Warning"), listed.err.constData()); // verification is on
    // The CLI says when librdkafka reads the groups, and only then.
    QVERIFY2(listed.err.contains("Note: GROUPSCOPE_GROUP_CLIENT=librdkafka is set") == librdkafka,
             listed.err.constData());
    const auto described =
        cli(m_broker.clientConfig(user), {QStringLiteral("describe"), QStringLiteral("--group"),
                                          m_group, QStringLiteral("--json")});
    QVERIFY2(described.ok(), described.err.constData());
    const auto offsets = committedFromDescribeJson(described.out);
    QCOMPARE(offsets.value(m_topic + QStringLiteral(":0")), 2);
    QCOMPARE(offsets.value(m_topic + QStringLiteral(":2")), 4);
}

void TestSecuredBroker::restrictedUserTimelineFallsBackToPolling() {
    const auto timeline =
        cli(m_broker.clientConfig(QStringLiteral("carol")),
            {QStringLiteral("timeline"), QStringLiteral("--group"), m_group,
             QStringLiteral("--since"), QStringLiteral("PT10M"), QStringLiteral("--json")});
    QVERIFY2(timeline.ok(), timeline.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(timeline.out).object();
    QCOMPARE(json[QStringLiteral("source")].toString(), QStringLiteral("polling"));
    QVERIFY(json[QStringLiteral("approximate")].toBool());
    const QString note = json[QStringLiteral("note")].toString();
    QVERIFY2(note.contains(QStringLiteral("TOPIC_AUTHORIZATION_FAILED")) &&
                 note.contains(QStringLiteral("not authorised")) &&
                 note.contains(QStringLiteral("__consumer_offsets")),
             qPrintable(note));
    QVERIFY2(timeline.err.contains("approximate (polling only)"), timeline.err.constData());
    // Polling still saw the group and its commits.
    QCOMPARE(json[QStringLiteral("state")].toString(), QStringLiteral("Empty"));
}

// carol may describe the topic but not read it: the figures that need its records
// (effective lag, the oldest unconsumed record's age) are named as not computed, with the
// ACL as the reason, never guessed; the plain lag is admin's, who reads both.
void TestSecuredBroker::unreadableRecordsLeaveThePlainLagAndSayWhy() {
    const QStringList describe{QStringLiteral("describe"), QStringLiteral("--group"), m_group,
                               QStringLiteral("--lag-detail"), QStringLiteral("--json")};
    const auto rowsOf = [](const QByteArray& json) {
        QMap<int, QJsonObject> rows;
        for (const QJsonValue& row :
             QJsonDocument::fromJson(json).array().at(0)[QStringLiteral("partitions")].toArray())
            rows.insert(row[QStringLiteral("partition")].toInt(), row.toObject());
        return rows;
    };
    const auto asCarol = cli(m_broker.clientConfig(QStringLiteral("carol")), describe);
    const auto asAdmin = cli(m_broker.clientConfig(QStringLiteral("admin")), describe);
    QVERIFY2(asCarol.ok(), asCarol.err.constData());
    QVERIFY2(asAdmin.ok(), asAdmin.err.constData());
    const QMap<int, QJsonObject> carol = rowsOf(asCarol.out);
    const QMap<int, QJsonObject> admin = rowsOf(asAdmin.out);
    QCOMPARE(carol.size(), partitionCount);
    QCOMPARE(carol.keys(), admin.keys());
    for (int partition = 0; partition < partitionCount; ++partition) {
        const QJsonObject mine = carol.value(partition);
        const QJsonObject detail = mine[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(mine[QStringLiteral("lag")].toInteger(),
                 admin.value(partition)[QStringLiteral("lag")].toInteger());
        QVERIFY(mine[QStringLiteral("lag")].toInteger() > 0);
        QVERIFY(detail[QStringLiteral("effectiveLag")].isNull());
        QCOMPARE(detail[QStringLiteral("oldestRecord")][QStringLiteral("status")].toString(),
                 QStringLiteral("notRead"));
        const QString why = detail[QStringLiteral("notComputed")].toArray().at(0).toString();
        QVERIFY2(why.contains(QStringLiteral("not authorised")) &&
                     why.contains(QStringLiteral("could not be read")),
                 qPrintable(why));
        // Admin reads the records: the same lag, decided.
        const QJsonObject adminDetail =
            admin.value(partition)[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(adminDetail[QStringLiteral("effectiveLag")].toInteger(-1),
                 mine[QStringLiteral("lag")].toInteger());
    }
    QVERIFY(QJsonDocument::fromJson(asCarol.out)
                .array()
                .at(0)[QStringLiteral("totalEffectiveLag")]
                .isNull());
}

// carol may describe the topic but not read it: the Records view says so at once (not
// after waiting out its read timeout), naming the topic; alice reads the same records.
void TestSecuredBroker::recordsDeniedByAnAclSayWhyAtOnce() {
    const QStringList records{
        QStringLiteral("records"), QStringLiteral("--group"),      m_group,
        QStringLiteral("--topic"), m_topic + QStringLiteral(":0"), QStringLiteral("--at"),
        QStringLiteral("earliest")};
    const auto asCarol = cli(m_broker.clientConfig(QStringLiteral("carol")), records);
    QCOMPARE(asCarol.exitCode, 1);
    QVERIFY2(asCarol.err.contains("reading " + m_topic.toUtf8() + ":0") &&
                 asCarol.err.contains("not authorised") && !asCarol.err.contains("no record of"),
             asCarol.err.constData());
    const auto asAlice = cli(m_broker.clientConfig(QStringLiteral("alice")), records);
    QVERIFY2(asAlice.ok(), asAlice.err.constData());
    QVERIFY2(asAlice.out.contains("Records of " + m_topic.toUtf8() + ":0"),
             asAlice.out.constData());
}

void TestSecuredBroker::userWithoutAlterGetsAuthorisationErrorPerPartition() {
    const auto before = committedAsAlice();
    QCOMPARE(before.size(), partitionCount);
    const auto reset =
        cli(m_broker.clientConfig(QStringLiteral("dave")),
            {QStringLiteral("reset"), QStringLiteral("--group"), m_group, QStringLiteral("--topic"),
             m_topic, QStringLiteral("--to-earliest"), QStringLiteral("--execute")});
    QCOMPARE(reset.exitCode, 1);
    int deniedRows = 0;
    for (const QString& line : text(reset.out).split(QLatin1Char('\n')))
        if (line.contains(QStringLiteral("FAILED:")) &&
            line.contains(QStringLiteral("GROUP_AUTHORIZATION_FAILED")) &&
            line.contains(QStringLiteral("not authorised")))
            ++deniedRows;
    QVERIFY2(deniedRows == partitionCount, reset.out.constData());
    QCOMPARE(committedAsAlice(), before); // nothing changed
}

// dave may read (so commit offsets for) one group and topic A, but not topic B: Kafka then
// commits A's partitions and answers TOPIC_AUTHORIZATION_FAILED for B's, in one request.
// The CLI reports each row, the audit entry says what was applied (B's "after" stays its
// "before", with the error), and undo puts back only the rows that changed.
void TestSecuredBroker::partialFailureIsReportedAuditedAndUndoneRowByRow() {
    const QString internal = m_broker.internalBootstrap();
    const QString allowed = test::uniqueName(QStringLiteral("secured-allowed"));
    const QString denied = test::uniqueName(QStringLiteral("secured-denied"));
    const QString group = test::uniqueName(QStringLiteral("secured-partial"));
    QVERIFY(test::createTopic(allowed, 2, internal));
    QVERIFY(test::createTopic(denied, 1, internal));
    for (int partition = 0; partition < 2; ++partition)
        QVERIFY(test::produce(allowed, 5, partition, internal));
    QVERIFY(test::produce(denied, 5, 0, internal));
    QVERIFY(test::commitOffsets(group, allowed, {1, 1}, {}, internal));
    QVERIFY(test::commitOffsets(group, denied, {1}, {}, internal));
    const auto acls = test::runPython(QStringLiteral(R"(
from kafka.admin import (KafkaAdminClient, ACL, ACLOperation, ACLPermissionType,
                         ResourcePattern, ResourceType)
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
result = admin.create_acls([
    ACL('User:dave', '*', ACLOperation.READ, ACLPermissionType.ALLOW,
        ResourcePattern(ResourceType.GROUP, '%1')),
    ACL('User:dave', '*', ACLOperation.READ, ACLPermissionType.ALLOW,
        ResourcePattern(ResourceType.TOPIC, '%2'))])
admin.close()
if result['failed']:
    raise SystemExit(str(result['failed']))
)")
                                          .arg(group, allowed),
                                      120s, internal);
    QVERIFY2(acls.ok(), acls.err.constData());
    // ACLs reach the broker's authoriser asynchronously: wait until dave may commit on the
    // allowed topic (writing the offset it already has, so nothing changes).
    auto dave = admin(QStringLiteral("dave"));
    QVERIFY(dave);
    auto daveMayCommit = [&] {
        const auto outcome = dave->alterCommittedOffsets(group, {{{allowed, 0}, 1}});
        return outcome.ok() && outcome.value().size() == 1 && !outcome.value().first().error;
    };
    QTRY_VERIFY_WITH_TIMEOUT(daveMayCommit(), 60000);

    const QString daveConfig = m_broker.clientConfig(QStringLiteral("dave"));
    const auto reset =
        cli(daveConfig, {QStringLiteral("reset"), QStringLiteral("--group"), group,
                         QStringLiteral("--all-topics"), QStringLiteral("--to-latest"),
                         QStringLiteral("--execute")});
    QCOMPARE(reset.exitCode, 1);
    QMap<QString, QString> statusByRow; // "topic:partition" -> the output line
    for (const QString& line : text(reset.out).split(QLatin1Char('\n'))) {
        const QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (cells.size() >= 6 && cells[0] == group)
            statusByRow.insert(cells[1] + QLatin1Char(':') + cells[2], line);
    }
    QCOMPARE(statusByRow.size(), 3);
    for (int partition = 0; partition < 2; ++partition) {
        const QString line = statusByRow.value(QStringLiteral("%1:%2").arg(allowed).arg(partition));
        const QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QVERIFY2(cells.size() == 6 && cells[3] == u"1" && cells[4] == u"5" && cells[5] == u"ok",
                 qPrintable(line));
    }
    const QString deniedLine = statusByRow.value(denied + QStringLiteral(":0"));
    QVERIFY2(deniedLine.contains(QStringLiteral("FAILED:")) &&
                 deniedLine.contains(QStringLiteral("TOPIC_AUTHORIZATION_FAILED")),
             qPrintable(deniedLine));
    QVERIFY2(reset.err.contains("2 of 3 partition(s) applied"), reset.err.constData());
    QCOMPARE(test::committedOffsetsByKafka(group, allowed, internal),
             (QMap<int, qlonglong>{{0, 5}, {1, 5}}));
    QCOMPARE(test::committedOffsetsByKafka(group, denied, internal),
             (QMap<int, qlonglong>{{0, 1}}));

    // The audit entry: what was applied, and what was not.
    const auto history = cli(daveConfig, {QStringLiteral("history"), QStringLiteral("--group"),
                                          group, QStringLiteral("--json")});
    QVERIFY2(history.ok(), history.err.constData());
    const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
    QCOMPARE(entries.size(), 1);
    QMap<QString, QJsonObject> audited;
    for (const QJsonValue& value : entries.first()[QStringLiteral("partitions")].toArray())
        audited.insert(QStringLiteral("%1:%2")
                           .arg(value[QStringLiteral("topic")].toString())
                           .arg(value[QStringLiteral("partition")].toInt()),
                       value.toObject());
    QCOMPARE(audited.size(), 3);
    for (int partition = 0; partition < 2; ++partition) {
        const QJsonObject row = audited.value(QStringLiteral("%1:%2").arg(allowed).arg(partition));
        QCOMPARE(row[QStringLiteral("before")].toInteger(), qint64(1));
        QCOMPARE(row[QStringLiteral("after")].toInteger(), qint64(5));
        QVERIFY(row[QStringLiteral("error")].toString().isEmpty());
    }
    const QJsonObject deniedRow = audited.value(denied + QStringLiteral(":0"));
    QCOMPARE(deniedRow[QStringLiteral("before")].toInteger(), qint64(1));
    QCOMPARE(deniedRow[QStringLiteral("after")].toInteger(), qint64(1)); // unchanged
    QVERIFY2(deniedRow[QStringLiteral("error")].toString().contains(
                 QStringLiteral("TOPIC_AUTHORIZATION_FAILED")),
             QJsonDocument(deniedRow).toJson().constData());

    // Undo writes back only the rows that changed: dave may, so it succeeds whole.
    const auto undo = cli(daveConfig, {QStringLiteral("undo"), QStringLiteral("--entry"),
                                       entries.first()[QStringLiteral("id")].toString(),
                                       QStringLiteral("--execute"), QStringLiteral("--json")});
    QVERIFY2(undo.ok(), (undo.out + undo.err).constData());
    QVERIFY2(!undo.out.contains(denied.toUtf8()), undo.out.constData());
    QVERIFY2(undo.err.contains("2 of 2 partition(s) applied"), undo.err.constData());
    QCOMPARE(test::committedOffsetsByKafka(group, allowed, internal),
             (QMap<int, qlonglong>{{0, 1}, {1, 1}}));
    QCOMPARE(test::committedOffsetsByKafka(group, denied, internal),
             (QMap<int, qlonglong>{{0, 1}}));
}

void TestSecuredBroker::wrongPasswordFailsFastWithAuthenticationMessage() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    // The message names the broker, and no password, right or wrong.
    listFailsFastWith(
        configWith(QStringLiteral("alice"), {QStringLiteral("sasl.password=not-the-password")}),
        {"authentication failed", "SASL", m_broker.bootstrap().toUtf8()}, "wrong password",
        {"not-the-password",
         m_broker.clientProperty(QStringLiteral("alice"), QStringLiteral("sasl.password"))
             .toUtf8()});
}

void TestSecuredBroker::adminClientFailsFastOnWrongPassword() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    auto profile = kafka::ConnectionProfile::fromCommandConfigFile(
        m_broker.clientConfig(QStringLiteral("carol")));
    QVERIFY(profile.ok());
    profile.value().saslPassword = QStringLiteral("not-the-password");
    auto client = kafka::AdminClient::create(profile.value(), longTimeout);
    QVERIFY(client.ok());
    QCOMPARE(client.value()->isFallback(), librdkafka);
    const auto start = std::chrono::steady_clock::now();
    const auto groups = client.value()->listGroups();
    const auto elapsed = std::chrono::steady_clock::now() - start;
    QVERIFY(!groups.ok());
    QCOMPARE(groups.error().code, RD_KAFKA_RESP_ERR__AUTHENTICATION);
    QVERIFY(elapsed < longTimeout / 2);
    // A second call on the same client fails the same way, not with a stale answer. librdkafka
    // may not report the same failure twice, so this one may wait out a short deadline.
    // Groupscope's own client tries again, and fails fast again.
    client.value()->setTimeout(10s);
    const auto againStart = std::chrono::steady_clock::now();
    const auto again = client.value()->describeGroups({m_group});
    const auto againElapsed = std::chrono::steady_clock::now() - againStart;
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, RD_KAFKA_RESP_ERR__AUTHENTICATION);
    if (!librdkafka)
        QVERIFY(againElapsed < 5s);
}

void TestSecuredBroker::untrustedBrokerFailsFastWithCertificateMessage() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    listFailsFastWith(configWith(QStringLiteral("bob"),
                                 {QStringLiteral("ssl.ca.location=") + m_broker.untrustedCaFile()}),
                      {"TLS handshake failed", "certificate"}, "untrusted certificate");
}

void TestSecuredBroker::listFailsFastWith(const QString& config, const QByteArrayList& phrases,
                                          const char* what, const QByteArrayList& absent) {
    QElapsedTimer timer;
    timer.start();
    const auto listed =
        test::run(cliPath,
                  {QStringLiteral("--command-config"), config, QStringLiteral("--timeout"),
                   QString::number(longTimeout.count()), QStringLiteral("list")},
                  {}, longTimeout / 2);
    const qint64 elapsed = timer.elapsed();
    QCOMPARE(listed.exitCode, 1);
    for (const QByteArray& phrase : phrases)
        QVERIFY2(listed.err.contains(phrase), listed.err.constData());
    for (const QByteArray& secret : absent)
        QVERIFY2(!secret.isEmpty() && !(listed.out + listed.err).contains(secret),
                 "a secret is in the output");
    // Failing fast means not waiting out the request deadline (run() above stops at half of it).
    QVERIFY2(elapsed < longTimeout.count() / 2, qPrintable(QString::number(elapsed)));
    qInfo("%s reported after %lld ms (deadline %lld ms)", what, elapsed,
          qlonglong(longTimeout.count()));
}

void TestSecuredBroker::verificationOffConnectsToUntrustedBrokerWithWarning() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    const QString config = configWith(
        QStringLiteral("bob"), {QStringLiteral("ssl.ca.location=") + m_broker.untrustedCaFile()},
        {QStringLiteral("enable.ssl.certificate.verification=false")});
    const auto listed = cli(config, {QStringLiteral("list")});
    QVERIFY2(listed.ok(), listed.err.constData());
    QVERIFY(text(listed.out).split(QLatin1Char('\n')).contains(m_group));
    QVERIFY2(listed.err.contains("Warning: TLS verification is off"), listed.err.constData());
}

void TestSecuredBroker::wrongKeyPassphraseIsNamed() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    const QString config = configWith(QStringLiteral("alice"),
                                      {QStringLiteral("ssl.key.password=not-the-passphrase")});
    const auto listed = cli(config, {QStringLiteral("list")});
    QCOMPARE(listed.exitCode, 1);
    QVERIFY2(listed.err.contains("wrong key passphrase (ssl.key.password)"),
             listed.err.constData());
}

void TestSecuredBroker::hostNameMismatchIsRefusedUnlessTurnedOff() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    // "127.1" is 127.0.0.1 to the resolver (inet_aton) but, not being a dotted quad, a host
    // name to the TLS check: the broker's certificate (IP:127.0.0.1, DNS:localhost) is valid
    // and trusted, only not issued for that name.
    const QString port = m_broker.bootstrap().section(QLatin1Char(':'), 1);
    const QString otherName = QStringLiteral("bootstrap.servers=127.1:") + port;
    listFailsFastWith(configWith(QStringLiteral("bob"), {otherName}),
                      {"TLS handshake failed", "127.1:" + port.toUtf8()}, "host name mismatch");
    const auto accepted =
        cli(configWith(QStringLiteral("bob"), {otherName},
                       {QStringLiteral("ssl.endpoint.identification.algorithm=none")}),
            {QStringLiteral("list")});
    QVERIFY2(accepted.ok(), accepted.err.constData());
    QVERIFY2(accepted.err.contains("Warning: TLS host name verification is off"),
             accepted.err.constData());
}

void TestSecuredBroker::kafkaToolSeesTheSameOffsets() {
    const auto ours = committedAsAlice();
    QCOMPARE(ours.size(), partitionCount);
    const auto kafkaTool = test::kafkaConsumerGroups(
        {QStringLiteral("--command-config"), m_broker.javaClientConfig(QStringLiteral("carol")),
         QStringLiteral("--describe"), QStringLiteral("--group"), m_group},
        m_broker.bootstrap());
    QVERIFY2(kafkaTool.ok(), kafkaTool.err.constData());
    QCOMPARE(committedFromKafkaTool(kafkaTool.out, m_group), ours);
}

void TestSecuredBroker::kafkaToolIsDeniedTheSameReset() {
    const auto before = committedAsAlice();
    const auto kafkaTool = test::kafkaConsumerGroups(
        {QStringLiteral("--command-config"), m_broker.javaClientConfig(QStringLiteral("dave")),
         QStringLiteral("--reset-offsets"), QStringLiteral("--group"), m_group,
         QStringLiteral("--topic"), m_topic, QStringLiteral("--to-earliest"),
         QStringLiteral("--execute")},
        m_broker.bootstrap());
    const QString output = text(kafkaTool.out + kafkaTool.err);
    QVERIFY2(output.contains(QStringLiteral("GroupAuthorizationException")) ||
                 output.contains(QStringLiteral("Not authorized to access group")),
             qPrintable(output));
    QCOMPARE(committedAsAlice(), before);
}

void TestSecuredBroker::kafkaToolRejectsTheWrongPassword() {
    QFile source(m_broker.javaClientConfig(QStringLiteral("alice")));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QString password =
        m_broker.clientProperty(QStringLiteral("alice"), QStringLiteral("sasl.password"));
    QVERIFY(!password.isEmpty());
    const QString wrongConfig = m_scratch.filePath(QStringLiteral("wrong.java.properties"));
    QFile target(wrongConfig);
    QVERIFY(target.open(QIODevice::WriteOnly));
    target.write(QString::fromUtf8(source.readAll())
                     .replace(password, QStringLiteral("not-the-password"))
                     .toUtf8());
    target.close();
    const auto kafkaTool = test::kafkaConsumerGroups(
        {QStringLiteral("--command-config"), wrongConfig, QStringLiteral("--list"),
         QStringLiteral("--timeout"), QStringLiteral("20000")},
        m_broker.bootstrap());
    // Kafka's tool 3.9 exits 0 even here ("Error: Executing consumer group command
    // failed"): its output is what can be compared.
    const QString output = text(kafkaTool.out + kafkaTool.err);
    QVERIFY2(output.contains(QStringLiteral("SaslAuthenticationException")) &&
                 output.contains(QStringLiteral("invalid credentials")),
             qPrintable(output));
}

QTEST_GUILESS_MAIN(TestSecuredBroker)
