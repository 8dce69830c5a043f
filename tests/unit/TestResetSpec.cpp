#include "offsets/KafkaCommandLine.h"
#include "offsets/ResetSpec.h"

#include <QTest>

using namespace groupscope::offsets;

class TestResetSpec : public QObject {
    Q_OBJECT
private slots:
    void dateTimes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expectedMs");
        const qint64 base = 1704110400000; // 2024-01-01T12:00:00.000Z
        QTest::newRow("no zone is UTC") << QStringLiteral("2024-01-01T12:00:00.000") << base;
        QTest::newRow("Z") << QStringLiteral("2024-01-01T12:00:00.000Z") << base;
        QTest::newRow("+08") << QStringLiteral("2024-01-01T20:00:00.000+08") << base;
        QTest::newRow("+0800") << QStringLiteral("2024-01-01T20:00:00.000+0800") << base;
        QTest::newRow("+08:00") << QStringLiteral("2024-01-01T20:00:00.000+08:00") << base;
        QTest::newRow("-05:30") << QStringLiteral("2024-01-01T06:30:00.000-05:30") << base;
        QTest::newRow("milliseconds") << QStringLiteral("2024-01-01T12:00:00.123Z") << base + 123;
        QTest::newRow("without milliseconds") << QStringLiteral("2024-01-01T12:00:00") << base;
        QTest::newRow("leap day") << QStringLiteral("2024-02-29T00:00:00.000Z")
                                  << qint64(1709164800000);
    }
    void dateTimes() {
        QFETCH(QString, text);
        QFETCH(qint64, expectedMs);
        const auto parsed = parseResetDateTime(text);
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message));
        QCOMPARE(qint64(parsed.value()), expectedMs);
    }

    void badDateTimes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("no T") << QStringLiteral("2024-01-01 12:00:00.000")
                              << QStringLiteral("is not yyyy-MM-ddTHH:mm:ss.SSS");
        QTest::newRow("month 13") << QStringLiteral("2024-13-01T00:00:00.000")
                                  << QStringLiteral("no such date");
        QTest::newRow("Feb 30") << QStringLiteral("2024-02-30T00:00:00.000")
                                << QStringLiteral("no such date");
        QTest::newRow("not leap") << QStringLiteral("2023-02-29T00:00:00.000")
                                  << QStringLiteral("no such date");
        QTest::newRow("hour 24") << QStringLiteral("2024-01-01T24:00:00.000")
                                 << QStringLiteral("no such time");
        QTest::newRow("one fraction digit")
            << QStringLiteral("2024-01-01T12:00:00.5") << QStringLiteral("3 digits");
        QTest::newRow("zone too far")
            << QStringLiteral("2024-01-01T12:00:00.000+19:00") << QStringLiteral("out of range");
        QTest::newRow("zone minutes")
            << QStringLiteral("2024-01-01T12:00:00.000+01:75") << QStringLiteral("out of range");
        QTest::newRow("empty") << QString() << QStringLiteral("is not");
        QTest::newRow("garbage") << QStringLiteral("yesterday") << QStringLiteral("is not");
    }
    void badDateTimes() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto parsed = parseResetDateTime(text);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().message.contains(message), qPrintable(parsed.error().message));
    }

    void durations_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expectedMs");
        QTest::newRow("minutes") << QStringLiteral("PT30M") << qint64(1'800'000);
        QTest::newRow("hours and minutes") << QStringLiteral("PT1H30M") << qint64(5'400'000);
        QTest::newRow("days") << QStringLiteral("P2D") << qint64(172'800'000);
        QTest::newRow("days and hours") << QStringLiteral("P1DT12H") << qint64(129'600'000);
        QTest::newRow("fractional seconds") << QStringLiteral("PT1.5S") << qint64(1500);
        QTest::newRow("lower case") << QStringLiteral("pt10s") << qint64(10'000);
        QTest::newRow("negative whole") << QStringLiteral("-PT1H") << qint64(-3'600'000);
        QTest::newRow("negative part") << QStringLiteral("PT-10M") << qint64(-600'000);
        QTest::newRow("zero") << QStringLiteral("PT0S") << qint64(0);
    }
    void durations() {
        QFETCH(QString, text);
        QFETCH(qint64, expectedMs);
        const auto parsed = parseIsoDuration(text);
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message));
        QCOMPARE(qint64(parsed.value()), expectedMs);
    }

    void badDurations_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("P alone") << QStringLiteral("P");
        QTest::newRow("T alone") << QStringLiteral("PT");
        QTest::newRow("words") << QStringLiteral("1 hour");
        QTest::newRow("weeks (a Period, not a Duration)") << QStringLiteral("P1W");
        QTest::newRow("months") << QStringLiteral("P1M");
        QTest::newRow("hours before T") << QStringLiteral("P1H");
        QTest::newRow("overflow") << QStringLiteral("P999999999999999D");
        QTest::newRow("overflow seconds") << QStringLiteral("PT99999999999999999999S");
    }
    void badDurations() {
        QFETCH(QString, text);
        QVERIFY(!parseIsoDuration(text).ok());
    }

    void specValues() {
        QVERIFY(ResetSpec::parse(ResetMode::ToOffset, QStringLiteral("9223372036854775807")).ok());
        const auto overflow =
            ResetSpec::parse(ResetMode::ToOffset, QStringLiteral("9223372036854775808"));
        QVERIFY(!overflow.ok());
        QVERIFY(overflow.error().message.contains(QStringLiteral("does not fit in 64 bits")));
        const auto negative = ResetSpec::parse(ResetMode::ToOffset, QStringLiteral("-3"));
        QVERIFY(!negative.ok());
        QVERIFY(negative.error().message.contains(QStringLiteral("shift-by")));
        QCOMPARE(ResetSpec::parse(ResetMode::ShiftBy, QStringLiteral("-3")).value().offset,
                 int64_t(-3));
        QCOMPARE(ResetSpec::parse(ResetMode::ShiftBy, QStringLiteral("+7")).value().offset,
                 int64_t(7));
        QVERIFY(!ResetSpec::parse(ResetMode::ShiftBy, QStringLiteral("3.5")).ok());
        QVERIFY(!ResetSpec::parse(ResetMode::ToEarliest, QStringLiteral("5")).ok());
        QCOMPARE(ResetSpec::parse(ResetMode::ToLatest, QString()).value().mode,
                 ResetMode::ToLatest);
        const auto duration =
            ResetSpec::parse(ResetMode::ByDuration, QStringLiteral("PT1H")).value();
        QCOMPARE(duration.lookupTimestampMs(10'000'000), int64_t(10'000'000 - 3'600'000));
    }

    void kafkaCommandLine() {
        KafkaResetCommand command;
        command.bootstrapServers = QStringLiteral("127.0.0.1:9092");
        command.groups = {QStringLiteral("billing"), QStringLiteral("odd name")};
        command.scope.topics = {QStringLiteral("orders:0,1")};
        command.spec =
            ResetSpec::parse(ResetMode::ToDatetime, QStringLiteral("2024-01-01T20:00:00.000+08:00"))
                .value();
        QCOMPARE(command.toString(),
                 QStringLiteral("kafka-consumer-groups --bootstrap-server 127.0.0.1:9092 "
                                "--reset-offsets --group billing "
                                "--group 'odd name' --topic orders:0,1 --to-datetime "
                                "2024-01-01T12:00:00.000Z --dry-run"));
        QCOMPARE(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
    }
};

QTEST_GUILESS_MAIN(TestResetSpec)
#include "TestResetSpec.moc"
