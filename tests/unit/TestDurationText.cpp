// durationText() and timeLagText(): the words the group list and the charts use for time.

#include "lag/DurationText.h"

#include <QTest>

using namespace groupscope::lag;

class TestDurationText : public QObject {
    Q_OBJECT

private slots:
    void durations_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("sub-second") << 0.85 << QStringLiteral("850 ms");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0 ms");
        QTest::newRow("seconds with a decimal") << 3.44 << QStringLiteral("3.4 s");
        QTest::newRow("tens of seconds") << 42.4 << QStringLiteral("42 s");
        QTest::newRow("just under a minute rounds up") << 59.7 << QStringLiteral("1m 00s");
        QTest::newRow("minutes") << 200.0 << QStringLiteral("3m 20s");
        QTest::newRow("hours") << 2 * 3600.0 + 5 * 60 + 59 << QStringLiteral("2h 05m");
        QTest::newRow("days") << 3 * 86400.0 + 4 * 3600 << QStringLiteral("3d 04h");
        QTest::newRow("negative") << -200.0 << QStringLiteral("-3m 20s");
        QTest::newRow("not a number") << std::nan("") << QStringLiteral("\u2013");
    }
    void durations() {
        QFETCH(double, seconds);
        QFETCH(QString, expected);
        QCOMPARE(durationText(seconds), expected);
    }

    void timeLags() {
        QCOMPARE(timeLagText({}), QStringLiteral("\u2013"));
        QCOMPARE(timeLagText({TimeLag::Status::CaughtUp, 0, false}), QStringLiteral("0 s"));
        QCOMPARE(timeLagText({TimeLag::Status::Estimated, 200, false}), QStringLiteral("3m 20s"));
        QCOMPARE(timeLagText({TimeLag::Status::Estimated, 200, true}),
                 QStringLiteral("\u2248 3m 20s"));
        QCOMPARE(timeLagText({TimeLag::Status::AtLeast, 75, false}),
                 QStringLiteral("\u2265 1m 15s"));
    }
};

QTEST_GUILESS_MAIN(TestDurationText)
#include "TestDurationText.moc"
