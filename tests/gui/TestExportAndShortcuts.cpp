// The group list exported as shown (filtered and sorted) to CSV and JSON, and Help >
// Keyboard shortcuts listing every action of the window that has a key, without a broker:
// the window is fed a view from the pipeline's builder as the monitor would.

#include "WholePoll.h"
#include "dialogs/FileChooser.h"
#include "dialogs/ShortcutsDialog.h"
#include "models/GroupListModel.h"
#include "monitor/ClusterViewBuilder.h"
#include "windows/MainWindow.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

namespace {

monitor::GroupSnapshot group(const QString& id, int64_t lag) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = kafka::GroupState::Empty;
    snapshot.description.type = kafka::GroupType::Classic;
    monitor::PartitionSnapshot partition;
    partition.topicPartition = {QStringLiteral("orders"), 0};
    partition.logStartOffset = 0;
    partition.logEndOffset = 100;
    partition.committedOffset = 100 - lag;
    partition.lag = lag;
    snapshot.partitions = {partition};
    return snapshot;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestExportAndShortcuts : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("GROUPSCOPE_NO_KEYCHAIN", "1");
        QStandardPaths::setTestModeEnabled(true);
    }

    void groupListExportsWhatIsShown() {
        ui::MainWindow window;
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        builder.setListRows(true);
        test::observeWholePoll(builder,
                               {group(QStringLiteral("billing"), 5),
                                group(QStringLiteral("audit, \"eu\""), 40),
                                group(QStringLiteral("shipping"), 0)},
                               true);
        window.applyView(builder.view());
        window.groupView()->sortByColumn(ui::GroupListModel::TotalLagColumn, Qt::DescendingOrder);
        window.findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))
            ->setText(QStringLiteral("i"));
        auto* exportList = window.findChild<QAction*>(QStringLiteral("exportGroupListAction"));
        QVERIFY(exportList);

        const QString csvPath = m_dir.filePath(QStringLiteral("groups.csv"));
        ui::FileChooser::setNextFileName(csvPath);
        exportList->trigger();
        const QList<QByteArray> lines = readAll(csvPath).split('\n');
        QVERIFY2(lines.size() >= 3, readAll(csvPath).constData());
        QVERIFY(lines.at(0).contains("Group,Type,State"));
        // Sorted by lag as shown (all three match "i"), the comma and quotes of a group id
        // quoted as RFC 4180 wants.
        QVERIFY2(lines.at(1).contains("\"audit, \"\"eu\"\"\""), lines.at(1).constData());
        QVERIFY2(lines.at(2).contains("billing"), lines.at(2).constData());

        window.findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))
            ->setText(QStringLiteral("bill"));
        const QString jsonPath = m_dir.filePath(QStringLiteral("groups.json"));
        ui::FileChooser::setNextFileName(jsonPath);
        exportList->trigger();
        const QJsonArray rows = QJsonDocument::fromJson(readAll(jsonPath)).array();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first()[QStringLiteral("Group")].toString(), QStringLiteral("billing"));
        QCOMPARE(rows.first()[QStringLiteral("Total lag")].toString(), QStringLiteral("5"));
    }

    void everyShortcutIsListed() {
        ui::MainWindow window;
        const QList<ui::ShortcutsDialog::Shortcut> listed =
            ui::ShortcutsDialog::shortcutsOf(&window);
        const auto has = [&](const QString& action, const QKeySequence& keys) {
            const QString text = keys.toString(QKeySequence::NativeText);
            return std::any_of(listed.cbegin(), listed.cend(), [&](const auto& shortcut) {
                return shortcut.action.startsWith(action) && shortcut.keys == text;
            });
        };
        for (const QAction* action : window.findChildren<QAction*>())
            if (!action->shortcut().isEmpty() && !action->text().isEmpty())
                QVERIFY2(has(action->text().remove(u'&').remove(QStringLiteral("…")),
                             action->shortcut()),
                         qPrintable(action->text()));
        QVERIFY(has(QStringLiteral("Delete group"), QKeySequence::Delete));
        QVERIFY(has(QStringLiteral("Topics and their groups"),
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T)));
        QVERIFY(has(QStringLiteral("Keyboard shortcuts"), QKeySequence::HelpContents));
        QVERIFY(has(QStringLiteral("Copy rows"), QKeySequence::Copy));
    }
};

QTEST_MAIN(TestExportAndShortcuts)
#include "TestExportAndShortcuts.moc"
