#include "lag/OffsetRateWindow.h"

#include <QTest>

#include <cmath>

using groupscope::lag::OffsetRateWindow;
using groupscope::lag::RateWindowOptions;

namespace {

constexpr int64_t start = 1'700'000'000'000;
constexpr int64_t windowMs = 60'000;
constexpr RateWindowOptions options{windowMs};

} // namespace

class TestOffsetRateWindow : public QObject {
    Q_OBJECT
private slots:
    // The window keeps at most maxSamplesKept() samples whatever the poll interval, and the
    // rate it reports still spans the window less an eighth and one poll interval: one
    // window per group partition, 100,000 of them at 10,000 groups.
    void keepsFewSamplesAndStillSpansTheWindow_data() {
        QTest::addColumn<int64_t>("pollMs");
        QTest::newRow("100 ms") << int64_t(100);
        QTest::newRow("1 s") << int64_t(1'000);
        QTest::newRow("2 s (the GUI's default)") << int64_t(2'000);
        QTest::newRow("3 s") << int64_t(3'000);
        QTest::newRow("5 s") << int64_t(5'000);
        QTest::newRow("7 s") << int64_t(7'000);
        QTest::newRow("11 s") << int64_t(11'000);
    }
    void keepsFewSamplesAndStillSpansTheWindow() {
        QFETCH(int64_t, pollMs);
        OffsetRateWindow window;
        constexpr double perSecond = 250;
        int mostKept = 0;
        for (int64_t at = 0; at <= 10 * windowMs; at += pollMs) {
            window.add(int64_t(double(at) * perSecond / 1000), start + at, options);
            mostKept = std::max(mostKept, window.sampleCount());
            if (at < 2 * windowMs)
                continue;
            const std::optional<double> rate = window.ratePerSecond(start + at, options);
            QVERIFY(rate);
            QVERIFY2(std::abs(*rate - perSecond) < 0.5, qPrintable(QString::number(*rate)));
        }
        QVERIFY2(mostKept <= OffsetRateWindow::maxSamplesKept(),
                 qPrintable(QStringLiteral("%1 samples kept").arg(mostKept)));
        QCOMPARE(OffsetRateWindow::maxSamplesKept(), 10);
    }

    // What the rate spans: an offset that moved only at the window's start shows in the
    // rate until it leaves the window, at any poll interval up to an eighth of the window.
    void rateSpansTheWindowLessAnEighthAndAPoll() {
        for (const int64_t pollMs : {int64_t(500), int64_t(2'000), int64_t(7'000)}) {
            OffsetRateWindow window;
            int64_t at = 0;
            for (; at <= 2 * windowMs; at += pollMs)
                window.add(0, start + at, options);
            // A jump of 1,000 now; then nothing moves.
            const int64_t jumpAt = at;
            for (; at <= jumpAt + 2 * windowMs; at += pollMs) {
                window.add(1'000, start + at, options);
                const double rate = window.ratePerSecond(start + at, options).value_or(-1);
                const bool jumpInSpan = at - jumpAt <= windowMs - windowMs / 8 - pollMs;
                if (jumpInSpan)
                    QVERIFY2(rate > 0, qPrintable(QStringLiteral("poll %1 ms, %2 ms after")
                                                      .arg(pollMs)
                                                      .arg(at - jumpAt)));
                if (at - jumpAt > windowMs)
                    QCOMPARE(rate, 0.0);
            }
        }
    }

    void sampleLimitIsKept() {
        OffsetRateWindow window;
        constexpr RateWindowOptions threeSamples{windowMs, 3};
        for (int64_t at = 0; at <= windowMs; at += 10'000) {
            window.add(at / 1'000, start + at, threeSamples); // one per second
            QVERIFY(window.sampleCount() <= 3);
        }
        // Three samples 10 s apart: the rate spans 20 s of the last ones.
        QCOMPARE(window.ratePerSecond(start + windowMs, threeSamples).value_or(-1), 1.0);
    }

    void samplesOutOfOrderAreIgnored() {
        OffsetRateWindow window;
        window.add(100, start, options);
        window.add(200, start + 10'000, options);
        window.add(5'000, start + 5'000, options); // earlier than the newest: ignored
        QCOMPARE(window.sampleCount(), 2);
        QCOMPARE(window.ratePerSecond(start + 10'000, options).value_or(-1), 10.0);
    }

    void oneSampleHasNoRateAndARewindIsNegative() {
        OffsetRateWindow window;
        window.add(1'000, start, options);
        QVERIFY(!window.ratePerSecond(start, options));
        window.add(500, start + 10'000, options);
        QCOMPARE(window.ratePerSecond(start + 10'000, options).value_or(0), -50.0);
        // Both samples out of the window: no rate.
        QVERIFY(!window.ratePerSecond(start + 10'000 + windowMs + 1, options));
    }
};

QTEST_GUILESS_MAIN(TestOffsetRateWindow)
#include "TestOffsetRateWindow.moc"
