// FreedesktopNotifier on a session bus of the test's own (Debian's dbus-daemon): a fake
// org.freedesktop.Notifications service receives the Notify call with the alert's title
// and reason; with no such service the alert goes to the tray's stand-in instead.

#include "notifications/FreedesktopNotifier.h"

#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDeadlineTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QTest>

using namespace groupscope;
using alerts::Alert;
using alerts::AlertKind;

namespace {

// The one method of the specification that a notifier calls.
class FakeNotifications : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call {
        QString appName;
        QString summary;
        QString body;
        QVariantMap hints;
    };
    QList<Call> calls;

public slots:
    uint Notify(const QString& appName, uint replacesId, const QString& appIcon,
                const QString& summary, const QString& body, const QStringList& actions,
                const QVariantMap& hints, int expireTimeout) {
        Q_UNUSED(replacesId);
        Q_UNUSED(appIcon);
        Q_UNUSED(actions);
        Q_UNUSED(expireTimeout);
        calls.append({appName, summary, body, hints});
        return uint(calls.size());
    }
};

class RecordingNotifier : public ui::DesktopNotifier {
public:
    explicit RecordingNotifier(QList<Alert>* shown)
        : m_shown(shown) {}
    void notify(const Alert& alert) override { m_shown->append(alert); }
    QString description() const override { return QStringLiteral("tray stand-in"); }

private:
    QList<Alert>* m_shown;
};

Alert stalled() {
    return {1'700'000'000'000,
            QStringLiteral("orders-app"),
            AlertKind::Health,
            QStringLiteral("OK"),
            QStringLiteral("ERR (STALL)"),
            QStringLiteral("orders-0: committing the same offset while lag remains")};
}

} // namespace

class TestFreedesktopNotifier : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        if (daemon.isEmpty())
            QSKIP("no dbus-daemon (Debian's dbus package) to start a session bus with");
        // A bus of its own, without the system's service files: nothing is activated on it
        // (the installed notification daemon, say), only what the test registers answers.
        QVERIFY(m_config.open());
        // (No raw string: moc reads the "//" of a DTD's name as a comment.)
        m_config.write("<busconfig>\n"
                       "  <type>session</type>\n"
                       "  <listen>unix:tmpdir=/tmp</listen>\n"
                       "  <policy context=\"default\">\n"
                       "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                       "    <allow eavesdrop=\"true\"/>\n"
                       "    <allow own=\"*\"/>\n"
                       "  </policy>\n"
                       "</busconfig>\n");
        m_config.flush();
        m_daemon.start(daemon, {QStringLiteral("--config-file=") + m_config.fileName(),
                                QStringLiteral("--nofork"), QStringLiteral("--nopidfile"),
                                QStringLiteral("--print-address=1")});
        QVERIFY(m_daemon.waitForStarted(10000));
        QDeadlineTimer deadline(10000);
        while (!m_daemon.canReadLine() && !deadline.hasExpired())
            m_daemon.waitForReadyRead(200);
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        QVERIFY2(m_address.startsWith(QStringLiteral("unix:")), qPrintable(m_address));
    }

    void cleanupTestCase() {
        QDBusConnection::disconnectFromBus(QStringLiteral("fake-daemon"));
        QDBusConnection::disconnectFromBus(QStringLiteral("groupscope"));
        if (m_daemon.state() != QProcess::NotRunning) {
            m_daemon.terminate();
            if (!m_daemon.waitForFinished(5000))
                m_daemon.kill();
            m_daemon.waitForFinished(5000);
        }
    }

    void theDaemonReceivesNotifyWithTheAlert() {
        QDBusConnection daemonSide =
            QDBusConnection::connectToBus(m_address, QStringLiteral("fake-daemon"));
        QVERIFY(daemonSide.isConnected());
        FakeNotifications fake;
        QVERIFY(daemonSide.registerObject(QString::fromLatin1(ui::FreedesktopNotifier::path), &fake,
                                          QDBusConnection::ExportAllSlots));
        QVERIFY(daemonSide.registerService(QString::fromLatin1(ui::FreedesktopNotifier::service)));

        QList<Alert> fellBack;
        ui::FreedesktopNotifier notifier(
            QDBusConnection::connectToBus(m_address, QStringLiteral("groupscope")),
            std::make_unique<RecordingNotifier>(&fellBack));
        notifier.notify(stalled());
        QTRY_COMPARE_WITH_TIMEOUT(fake.calls.size(), 1, 10000);
        QCOMPARE(fake.calls.first().appName, QStringLiteral("Groupscope"));
        QCOMPARE(fake.calls.first().summary, stalled().title());
        QCOMPARE(fake.calls.first().body, stalled().detail);
        QCOMPARE(fake.calls.first().hints.value(QStringLiteral("urgency")).toInt(), 2);
        QVERIFY(fellBack.isEmpty());
        QVERIFY(!notifier.usesFallback());

        daemonSide.unregisterService(QString::fromLatin1(ui::FreedesktopNotifier::service));
        daemonSide.unregisterObject(QString::fromLatin1(ui::FreedesktopNotifier::path));
    }

    void withoutANotificationServiceTheFallbackShowsIt() {
        QList<Alert> fellBack;
        ui::FreedesktopNotifier notifier(
            QDBusConnection::connectToBus(m_address, QStringLiteral("groupscope")),
            std::make_unique<RecordingNotifier>(&fellBack));
        notifier.notify(stalled());
        QTRY_COMPARE_WITH_TIMEOUT(fellBack.size(), 1, 30000);
        QVERIFY(notifier.usesFallback());
        QCOMPARE(notifier.description(), QStringLiteral("tray stand-in"));
        notifier.notify(stalled()); // the next one goes there at once
        QCOMPARE(fellBack.size(), 2);
    }

private:
    QTemporaryFile m_config;
    QProcess m_daemon;
    QString m_address;
};

QTEST_MAIN(TestFreedesktopNotifier)
#include "TestFreedesktopNotifier.moc"
