// KafkaError, the error value every Kafka call returns: names, text for people, the
// classification of connection-setup failures from librdkafka's reason text, and the
// authorisation explanations.
#include "kafka/KafkaError.h"

#include <librdkafka/rdkafka.h>

#include <QTest>

using groupscope::kafka::KafkaError;

Q_DECLARE_METATYPE(rd_kafka_resp_err_t)

class TestKafkaError : public QObject {
    Q_OBJECT
private slots:
    void noErrorByDefault() {
        const KafkaError none;
        QVERIFY(!none.isError());
        QVERIFY(!bool(none));
        QCOMPARE(none.codeName(), QStringLiteral("NO_ERROR"));
        QCOMPARE(none.toString(), QStringLiteral("no error"));
        QVERIFY(!none.isConnectionFailure());
        QVERIFY(!none.isAuthorizationError());
    }

    void codeNames_data() {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<QString>("name");
        QTest::newRow("broker error")
            << RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART << QStringLiteral("UNKNOWN_TOPIC_OR_PART");
        QTest::newRow("local error")
            << RD_KAFKA_RESP_ERR__TIMED_OUT << QStringLiteral("_TIMED_OUT");
        QTest::newRow("authorisation") << RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED
                                       << QStringLiteral("GROUP_AUTHORIZATION_FAILED");
    }
    void codeNames() {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(QString, name);
        QCOMPARE(KafkaError::fromCode(code).codeName(), name);
    }

    void toStringIsMessageThenCodeName() {
        const KafkaError error = KafkaError::timeout(QStringLiteral("listing groups timed out"));
        QCOMPARE(error.toString(), QStringLiteral("listing groups timed out (_TIMED_OUT)"));
    }

    void fromCodeAddsContextToLibrdkafkasText() {
        const QString description =
            QString::fromUtf8(rd_kafka_err2str(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART));
        QCOMPARE(KafkaError::fromCode(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART).message,
                 description);
        const KafkaError withContext =
            KafkaError::fromCode(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART, QStringLiteral("t-0"));
        QCOMPARE(withContext.message, QStringLiteral("t-0: ") + description);
        QCOMPARE(withContext.code, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART);
        QVERIFY(withContext.isError());
    }

    void fromErrorCopiesAndTakesOwnership() {
        QVERIFY(!KafkaError::fromError(nullptr).isError());
        // Under AddressSanitizer a leak here (the rd_kafka_error_t not destroyed) fails the run.
        const KafkaError error = KafkaError::fromError(
            rd_kafka_error_new(RD_KAFKA_RESP_ERR_NOT_COORDINATOR, "coordinator %d moved", 2));
        QCOMPARE(error.code, RD_KAFKA_RESP_ERR_NOT_COORDINATOR);
        QCOMPARE(error.message, QStringLiteral("coordinator 2 moved"));
        QVERIFY(!error.fatal);
    }

    void factories() {
        const KafkaError timedOut = KafkaError::timeout(QStringLiteral("x"));
        QCOMPARE(timedOut.code, RD_KAFKA_RESP_ERR__TIMED_OUT);
        QVERIFY(timedOut.retriable);
        QVERIFY(!timedOut.fatal);
        const KafkaError invalid = KafkaError::invalidArgument(QStringLiteral("bad --group"));
        QCOMPARE(invalid.code, RD_KAFKA_RESP_ERR__INVALID_ARG);
        QCOMPARE(invalid.message, QStringLiteral("bad --group"));
        QVERIFY(!invalid.retriable);
    }

    void connectionSetupFailure_data() {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<rd_kafka_resp_err_t>("expected");
        QTest::newRow("authentication code")
            << RD_KAFKA_RESP_ERR__AUTHENTICATION << QStringLiteral("anything")
            << RD_KAFKA_RESP_ERR__AUTHENTICATION;
        QTest::newRow("SASL text in the log")
            << RD_KAFKA_RESP_ERR_NO_ERROR
            << QStringLiteral("sasl_plaintext://127.0.0.1:9/1: SASL authentication error: "
                              "Authentication failed: Invalid username or password")
            << RD_KAFKA_RESP_ERR__AUTHENTICATION;
        QTest::newRow("SSL code") << RD_KAFKA_RESP_ERR__SSL << QStringLiteral("anything")
                                  << RD_KAFKA_RESP_ERR__SSL;
        // librdkafka 2.0 reports a rejected certificate on a read as a transport error.
        QTest::newRow("certificate in a transport error")
            << RD_KAFKA_RESP_ERR__TRANSPORT
            << QStringLiteral("ssl://127.0.0.1:9/1: SSL handshake failed: "
                              "error:0A000086:SSL routines::certificate verify failed")
            << RD_KAFKA_RESP_ERR__SSL;
        QTest::newRow("handshake text only")
            << RD_KAFKA_RESP_ERR_NO_ERROR
            << QStringLiteral("SSL handshake failed: Disconnected: connecting to a PLAINTEXT "
                              "broker listener?")
            << RD_KAFKA_RESP_ERR__SSL;
        // Retrying may help with these: they are not setup failures.
        QTest::newRow("connection refused")
            << RD_KAFKA_RESP_ERR__TRANSPORT
            << QStringLiteral("127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: "
                              "Connection refused")
            << RD_KAFKA_RESP_ERR_NO_ERROR;
        QTest::newRow("all brokers down")
            << RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN << QStringLiteral("1/1 brokers are down")
            << RD_KAFKA_RESP_ERR_NO_ERROR;
        QTest::newRow("timeout") << RD_KAFKA_RESP_ERR__TIMED_OUT << QString()
                                 << RD_KAFKA_RESP_ERR_NO_ERROR;
    }
    void connectionSetupFailure() {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(QString, reason);
        QFETCH(rd_kafka_resp_err_t, expected);
        const KafkaError failure = KafkaError::connectionSetupFailure(code, reason);
        QCOMPARE(failure.code, expected);
        if (!failure)
            return;
        // Says what to check, and keeps librdkafka's own words for the details.
        QVERIFY2(failure.message.endsWith(reason), qPrintable(failure.message));
        QVERIFY2(failure.message.contains(expected == RD_KAFKA_RESP_ERR__SSL
                                              ? QStringLiteral("ssl.ca.location")
                                              : QStringLiteral("sasl.password")),
                 qPrintable(failure.message));
        QVERIFY(!failure.retriable);
    }

    void connectionFailures_data() {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<bool>("isConnectionFailure");
        QTest::newRow("timed out") << RD_KAFKA_RESP_ERR__TIMED_OUT << true;
        QTest::newRow("transport") << RD_KAFKA_RESP_ERR__TRANSPORT << true;
        QTest::newRow("all brokers down") << RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN << true;
        QTest::newRow("resolve") << RD_KAFKA_RESP_ERR__RESOLVE << true;
        QTest::newRow("not coordinator") << RD_KAFKA_RESP_ERR_NOT_COORDINATOR << false;
        QTest::newRow("authentication") << RD_KAFKA_RESP_ERR__AUTHENTICATION << false;
        QTest::newRow("unknown group") << RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND << false;
    }
    void connectionFailures() {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(bool, isConnectionFailure);
        QCOMPARE(KafkaError::fromCode(code).isConnectionFailure(), isConnectionFailure);
    }

    void authorizationErrorsAreExplainedOnce_data() {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<QString>("explains");
        QTest::newRow("group") << RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED
                               << QStringLiteral("needs Read on it");
        QTest::newRow("topic") << RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED
                               << QStringLiteral("operation on the topic");
        QTest::newRow("cluster") << RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED
                                 << QStringLiteral("operation on the cluster");
    }
    void authorizationErrorsAreExplainedOnce() {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(QString, explains);
        const KafkaError error = KafkaError::fromCode(code, QStringLiteral("describing groups"));
        QVERIFY(error.isAuthorizationError());
        QVERIFY2(error.message.contains(explains), qPrintable(error.message));
        QCOMPARE(error.message.count(QStringLiteral("not authorised")), 1);
        // fromCode already explained it; explaining again changes nothing.
        QCOMPARE(error.withExplanation(), error);
        QCOMPARE(error.withExplanation().withExplanation(), error);

        // A bare error (as from a result event) is explained exactly once too.
        KafkaError bare{code, QStringLiteral("Broker: not authorized"), false, false};
        const KafkaError explained = bare.withExplanation();
        QVERIFY(explained.message.startsWith(bare.message));
        QVERIFY(explained.message.contains(explains));
        QCOMPARE(explained.withExplanation(), explained);
    }

    void otherErrorsAreNotExplained() {
        const KafkaError error = KafkaError::fromCode(RD_KAFKA_RESP_ERR_NOT_COORDINATOR);
        QVERIFY(!error.isAuthorizationError());
        QCOMPARE(error.withExplanation(), error);
        QCOMPARE(error.message,
                 QString::fromUtf8(rd_kafka_err2str(RD_KAFKA_RESP_ERR_NOT_COORDINATOR)));
    }

    void equalityComparesEveryField() {
        const KafkaError base{RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("m"), true, false};
        QCOMPARE(base,
                 (KafkaError{RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("m"), true, false}));
        QVERIFY(base !=
                (KafkaError{RD_KAFKA_RESP_ERR__TRANSPORT, QStringLiteral("m"), true, false}));
        QVERIFY(base !=
                (KafkaError{RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("n"), true, false}));
        QVERIFY(base !=
                (KafkaError{RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("m"), false, false}));
        QVERIFY(base !=
                (KafkaError{RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("m"), true, true}));
        QCOMPARE(KafkaError(), KafkaError());
    }
};

QTEST_GUILESS_MAIN(TestKafkaError)
#include "TestKafkaError.moc"
