#pragma once
// Groupscope against a broker that authenticates (SASL SCRAM-SHA-512, PLAIN and OAUTHBEARER
// over TLS) and authorises (ACLs), through both group clients: Groupscope's own
// (core/kafka/protocol) and librdkafka (GROUPSCOPE_GROUP_CLIENT=librdkafka). One broker
// serves every test function; the functions are in TestSecuredBroker.cpp (users, ACLs,
// TLS and password failures) and SecuredBrokerOAuth.cpp (OAUTHBEARER, OIDC, and profiles
// only librdkafka speaks).

#include "TestBroker.h"

#include "kafka/AdminClient.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

class TestSecuredBroker : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();

    void verificationIsOnByDefault();
    void commandConfigTurnsVerificationOffExplicitly();
    void hostNameCheckOffAloneIsWarnedAbout();

    void usersWithRightsListAndDescribe_data();
    void usersWithRightsListAndDescribe();
    void cliDescribesThroughEachMechanism_data();
    void cliDescribesThroughEachMechanism();
    void restrictedUserTimelineFallsBackToPolling();
    void unreadableRecordsLeaveThePlainLagAndSayWhy();
    void recordsDeniedByAnAclSayWhyAtOnce();
    void userWithoutAlterGetsAuthorisationErrorPerPartition();
    void partialFailureIsReportedAuditedAndUndoneRowByRow();
    void wrongPasswordFailsFastWithAuthenticationMessage_data() { addClientRows(); }
    void wrongPasswordFailsFastWithAuthenticationMessage();
    void adminClientFailsFastOnWrongPassword_data() { addClientRows(); }
    void adminClientFailsFastOnWrongPassword();
    void untrustedBrokerFailsFastWithCertificateMessage_data() { addClientRows(); }
    void untrustedBrokerFailsFastWithCertificateMessage();
    void verificationOffConnectsToUntrustedBrokerWithWarning_data() { addClientRows(); }
    void verificationOffConnectsToUntrustedBrokerWithWarning();
    void wrongKeyPassphraseIsNamed_data() { addClientRows(); }
    void wrongKeyPassphraseIsNamed();
    void hostNameMismatchIsRefusedUnlessTurnedOff_data() { addClientRows(); }
    void hostNameMismatchIsRefusedUnlessTurnedOff();

    // SecuredBrokerOAuth.cpp
    void oauthBearerListsAndDescribes_data();
    void oauthBearerListsAndDescribes();
    void refusedOAuthTokenFailsFast_data() { addClientRows(); }
    void refusedOAuthTokenFailsFast();
    void wrongOidcClientSecretFailsFast_data() { addClientRows(); }
    void wrongOidcClientSecretFailsFast();
    void oidcTokenIsFetchedOncePerLifetime();
    void expiredSaslSessionIsReopened();
    void keystoreProfileFallsBackToLibrdkafkaWithOneNote();
    void gssapiProfileIsNotedAsFallback();

    void kafkaToolSeesTheSameOffsets();
    void kafkaToolIsDeniedTheSameReset();
    void kafkaToolRejectsTheWrongPassword();

private:
    // The data column "librdkafka": a row per group client, named after it.
    static void addClientRows();
    // Runs groupscope-cli with a command config; `extraLines` are appended to a copy of it.
    groupscope::test::ProcessResult cli(const QString& configFile, const QStringList& arguments);
    QString configWith(const QString& user, const QStringList& replacements,
                       const QStringList& extraLines = {});
    // A command config of `lines` in the scratch directory.
    QString writeConfig(const QStringList& lines);
    // An OAUTHBEARER command config for the SASL_SSL listener with `lines` added.
    QString oauthConfig(const QStringList& lines);
    // An AdminClient for `config` (a command config file); checks that it uses the group
    // client the data row asks for, when there is a "librdkafka" column.
    std::unique_ptr<groupscope::kafka::AdminClient> adminFor(const QString& config);
    std::unique_ptr<groupscope::kafka::AdminClient> admin(const QString& user);
    QMap<QString, qint64> committedAsAlice();
    // Lists groups with the CLI under `config` and checks it fails, saying each of
    // `phrases` and none of `absent` (secrets), well before its request deadline; `what`
    // names the case in the log.
    void listFailsFastWith(const QString& config, const QByteArrayList& phrases, const char* what,
                           const QByteArrayList& absent = {});
    // Checks that the m_group's listing, description and committed offsets are what
    // initTestCase committed, through `client`.
    void checkGroupIsRead(groupscope::kafka::AdminClient& client);

    groupscope::test::SecureBroker m_broker;
    QTemporaryDir m_scratch;
    QString m_topic;
    QString m_group;
    int m_configCount = 0;
};

// Sets GROUPSCOPE_GROUP_CLIENT=librdkafka (read by AdminClient::create and the CLI, which
// inherits it) when `librdkafka` (a data row's column), else clears it, and clears it
// when it goes.
class GroupClientOfRow {
public:
    explicit GroupClientOfRow(bool librdkafka);
    ~GroupClientOfRow();
    GroupClientOfRow(const GroupClientOfRow&) = delete;
    GroupClientOfRow& operator=(const GroupClientOfRow&) = delete;
    bool librdkafka() const { return m_librdkafka; }

private:
    bool m_librdkafka = false;
};
