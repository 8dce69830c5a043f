// MainWindow's menus: File, View, Group, Help, and the group list's context menu. The
// controllers add their own actions (alerts and the tray, deletes).

#include "windows/MainWindow.h"

#include "controllers/GroupDeleteController.h"
#include "controllers/WindowAlertsController.h"
#include "dialogs/ShortcutsDialog.h"
#include "kafka/LibrdkafkaVersion.h"
#include "monitor/ClusterMonitor.h"
#include "widgets/ApplicationIcon.h"
#include "widgets/GroupBrowser.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TableCopy.h"
#include "widgets/TopicsView.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace groupscope::ui {

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction = fileMenu->addAction(tr("&Connections…"));
    connectAction->setShortcut(QKeySequence::Open);
    connect(connectAction, &QAction::triggered, this, &MainWindow::askForConnection);
    QAction* newWindow = fileMenu->addAction(tr("New &window…"));
    newWindow->setObjectName(QStringLiteral("newWindowAction"));
    newWindow->setShortcut(QKeySequence::New);
    connect(newWindow, &QAction::triggered, this, &MainWindow::askForNewWindow);
    QAction* refreshAction = fileMenu->addAction(tr("&Refresh now"));
    refreshAction->setShortcut(QKeySequence::Refresh);
    connect(refreshAction, &QAction::triggered, this, [this] {
        if (m_monitor)
            m_monitor->refreshNow();
    });
    fileMenu->addSeparator();
    QAction* importAction = fileMenu->addAction(tr("&Import offsets CSV…"));
    importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    connect(importAction, &QAction::triggered, this, [this] {
        m_detail->tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        m_detail->offsetPanel()->importCsv();
    });
    QAction* exportAction = fileMenu->addAction(tr("&Export offsets CSV…"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(exportAction, &QAction::triggered, this,
            [this] { m_detail->offsetPanel()->exportCsv(); });
    QAction* exportList = fileMenu->addAction(tr("Export the &group list…"));
    exportList->setObjectName(QStringLiteral("exportGroupListAction"));
    exportList->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(exportList, &QAction::triggered, this, [this] {
        statusBar()->showMessage(exportShownRows(this, m_browser->view(), tr("groups")), 8000);
    });
    QAction* exportPartitions = fileMenu->addAction(tr("Export the group's &partitions…"));
    exportPartitions->setObjectName(QStringLiteral("exportPartitionsAction"));
    connect(exportPartitions, &QAction::triggered, this, [this] {
        statusBar()->showMessage(exportShownRows(this, m_detail->partitionView(),
                                                 m_detail->groupId().isEmpty()
                                                     ? tr("partitions")
                                                     : m_detail->groupId() + tr("-partitions")),
                                 8000);
    });
    fileMenu->addSeparator();
    m_alerts->addKeepInTrayAction(fileMenu);
    QAction* quitAction = fileMenu->addAction(tr("&Quit"));
    quitAction->setShortcut(QKeySequence::Quit);
    connect(quitAction, &QAction::triggered, this, &MainWindow::quit);

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* filterAction = viewMenu->addAction(tr("&Filter groups"));
    filterAction->setShortcut(QKeySequence::Find);
    connect(filterAction, &QAction::triggered, m_browser, &GroupBrowser::focusFilter);
    QAction* listAction = viewMenu->addAction(tr("Group &list"));
    listAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(listAction, &QAction::triggered, this, [this] {
        m_browserTabs->setCurrentIndex(0);
        m_browser->view()->setFocus(Qt::ShortcutFocusReason);
    });
    QAction* topicsAction = viewMenu->addAction(tr("&Topics and their groups"));
    topicsAction->setObjectName(QStringLiteral("topicsAction"));
    topicsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    connect(topicsAction, &QAction::triggered, this, [this] {
        m_browserTabs->setCurrentWidget(m_topics);
        m_topics->filterEdit()->setFocus(Qt::ShortcutFocusReason);
    });
    viewMenu->addSeparator();
    for (int tab = 0; tab < m_detail->tabs()->count(); ++tab) {
        QAction* action = viewMenu->addAction(m_detail->tabs()->tabText(tab));
        action->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + tab)));
        connect(action, &QAction::triggered, this, [this, tab] {
            m_detail->tabs()->setCurrentIndex(tab);
            m_detail->tabs()->currentWidget()->setFocus(Qt::ShortcutFocusReason);
        });
    }

    QMenu* groupMenu = menuBar()->addMenu(tr("&Group"));
    QAction* openAction = groupMenu->addAction(tr("&Open selected group"));
    openAction->setShortcutContext(Qt::WidgetShortcut); // Enter on the list (activated) does it too
    connect(openAction, &QAction::triggered, this, &MainWindow::openCurrentGroup);
    QAction* addTopic = groupMenu->addAction(tr("&Add topic to the offsets table…"));
    connect(addTopic, &QAction::triggered, this, [this] { m_detail->offsetPanel()->addTopic(); });
    QAction* copyCommand = groupMenu->addAction(tr("&Copy as kafka-consumer-groups command"));
    copyCommand->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(copyCommand, &QAction::triggered, this,
            [this] { m_detail->offsetPanel()->copyKafkaCommand(); });
    QAction* applyAction = groupMenu->addAction(tr("A&pply offset changes…"));
    applyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    connect(applyAction, &QAction::triggered, this,
            [this] { m_detail->offsetPanel()->applyEdits(); });

    m_alerts->addActions(viewMenu, groupMenu);
    m_deletes->addActions(groupMenu, m_browser->view());

    // The list's context menu: open, watch, delete.
    PlaceholderTableView* list = m_browser->view();
    list->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(list, &QWidget::customContextMenuRequested, this, [this, list](const QPoint& at) {
        if (!list->indexAt(at).isValid())
            return;
        QMenu menu(this);
        menu.addAction(tr("&Open"), this, &MainWindow::openCurrentGroup);
        menu.addAction(tr("&Watch for alerts (★)"), m_alerts,
                       &WindowAlertsController::toggleWatchOfSelection);
        menu.addSeparator();
        menu.addAction(m_deletes->deleteAction());
        menu.exec(list->viewport()->mapToGlobal(at));
    });

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* aboutAction = helpMenu->addAction(tr("&About Groupscope"));
    aboutAction->setMenuRole(QAction::AboutRole);
    connect(aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
    QAction* shortcutsAction = helpMenu->addAction(tr("&Keyboard shortcuts"));
    shortcutsAction->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    shortcutsAction->setShortcut(QKeySequence::HelpContents);
    connect(shortcutsAction, &QAction::triggered, this, [this] {
        ShortcutsDialog dialog(ShortcutsDialog::shortcutsOf(this), this);
        dialog.exec();
    });
}

void MainWindow::showAbout() {
    // Opened by the user only, so a modal box is fine here. The version is the CMake
    // project's, the one both binaries' --version print.
    QMessageBox box(this);
    box.setWindowTitle(tr("About Groupscope"));
    box.setIconPixmap(applicationIcon().pixmap(64, 64));
    box.setText(tr("<h3>Groupscope %1</h3>").arg(QStringLiteral(GROUPSCOPE_VERSION)));
    box.setInformativeText(tr("An inspector for Apache Kafka consumer groups.<br>"
                              "librdkafka %1, Qt %2.<br>"
                              "Copyright © 2026 The Groupscope developers.<br>"
                              "Released under the MIT License.")
                               .arg(kafka::librdkafkaVersion(), QString::fromUtf8(qVersion())));
    box.exec();
}

} // namespace groupscope::ui
