// The application's identity as the user sees it: the window carries the project's icon at
// every size the .desktop entry's hicolor theme has, and Help > About shows the version
// from the CMake project (the one `--version` prints) with the same icon.

#include "windows/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDeadlineTimer>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

using groupscope::ui::MainWindow;

namespace {

// What the About box showed, read while it is open (it is modal: exec() returns only once
// it is closed).
struct AboutBoxSeen {
    bool opened = false;
    QString title;
    QString text;
    QString informativeText;
    QSize iconSize;
};

QAction* actionNamed(const QWidget& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == text)
            return action;
    return nullptr;
}

} // namespace

class TestAboutDialog : public QObject {
    Q_OBJECT

private slots:
    void windowCarriesTheApplicationIconAtEverySize() {
        MainWindow window;
        const QIcon icon = window.windowIcon();
        QVERIFY(!icon.isNull());
        const QList<QSize> sizes = icon.availableSizes();
        for (int size : {16, 24, 32, 48, 64, 128, 256})
            QVERIFY2(sizes.contains(QSize(size, size)), qPrintable(QString::number(size)));
    }

    void aboutShowsTheProjectVersionAndTheIcon() {
        MainWindow window;
        QAction* about = actionNamed(window, QStringLiteral("&About Groupscope"));
        QVERIFY(about);

        // Polls for the modal box from inside its own event loop, reads it, then closes it.
        AboutBoxSeen seen;
        QTimer poll;
        const QDeadlineTimer deadline(10000);
        QObject::connect(&poll, &QTimer::timeout, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) {
                if (deadline.hasExpired())
                    poll.stop();
                return;
            }
            poll.stop();
            seen.opened = true;
            seen.title = box->windowTitle();
            seen.text = box->text();
            seen.informativeText = box->informativeText();
            seen.iconSize = box->iconPixmap().size();
            box->accept();
        });
        poll.start(20);
        about->trigger();

        QVERIFY2(seen.opened, "Help > About opened no message box within 10 s");
        QCOMPARE(seen.title, QStringLiteral("About Groupscope"));
        QVERIFY2(seen.text.contains(QStringLiteral(GROUPSCOPE_VERSION)), qPrintable(seen.text));
        QVERIFY2(seen.informativeText.contains(QStringLiteral("librdkafka")),
                 qPrintable(seen.informativeText));
        QCOMPARE(seen.iconSize, QSize(64, 64));
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    TestAboutDialog test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestAboutDialog.moc"
