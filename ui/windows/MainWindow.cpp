#include "windows/MainWindow.h"

#include "controllers/AlertController.h"
#include "controllers/ResetController.h"
#include "delegates/GroupStateBadgeDelegate.h"
#include "delegates/LagSparklineDelegate.h"
#include "delegates/TextCellDelegate.h"
#include "dialogs/AlertThresholdsDialog.h"
#include "dialogs/ConnectionManagerDialog.h"
#include "dialogs/ShortcutsDialog.h"
#include "kafka/GroupClientChoice.h"
#include "kafka/LibrdkafkaVersion.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "monitor/AdminTaskRunner.h"
#include "monitor/ClusterMonitor.h"
#include "notifications/FreedesktopNotifier.h"
#include "notifications/TrayNotifier.h"
#include "settings/WatchStore.h"
#include "widgets/AlertPanel.h"
#include "widgets/ApplicationIcon.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TableCopy.h"
#include "widgets/TopicsView.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDBusConnection>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QVBoxLayout>

namespace groupscope::ui {

using monitor::ClusterMonitor;
using monitor::ClusterView;

namespace {

QString timeOfDay(const QDateTime& time) {
    return time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

QString groupCount(int groups) {
    return groups == 1 ? MainWindow::tr("1 group") : MainWindow::tr("%1 groups").arg(groups);
}

// An error red that stays readable on the palette in use: dark red on light windows,
// light red on dark ones.
QString errorColour(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128 ? QStringLiteral("#ff8a80")
                                                             : QStringLiteral("#b42318");
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new GroupListModel(this))
    , m_proxy(new GroupFilterProxyModel(this))
    , m_view(new PlaceholderTableView(this))
    , m_filterEdit(new QLineEdit(this))
    , m_stateFilter(new QComboBox(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_browserTabs(new QTabWidget(this))
    , m_topics(new TopicsView(this))
    , m_resetController(new ResetController(this))
    , m_detail(new GroupDetailWidget(m_resetController, this))
    , m_alerts(new AlertController(this))
    , m_alertPanel(new AlertPanel(m_alerts->model(), this))
    , m_tray(new QSystemTrayIcon(applicationIcon(), this))
    , m_statusLabel(new QLabel(this))
    , m_refreshLabel(new QLabel(this))
    , m_modeLabel(new QLabel(this))
    , m_colourBar(new QFrame(this))
    , m_profileLabel(new QLabel(this)) {
    setWindowTitle(tr("Groupscope"));
    setWindowIcon(applicationIcon());
    resize(1200, 800);

    m_proxy->setSourceModel(m_model);
    setUpFilters();
    setUpGroupTable();
    setUpLayout();
    setUpStatusBar();
    setUpAlerts();
    setUpWriteNotices();
    createMenus();
    applyLayout(WindowLayoutStore::load({}), true);
    showStatus(tr("Not connected"), false);
}

void MainWindow::setUpFilters() {
    m_filterEdit->setObjectName(QStringLiteral("groupFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by group or topic (Ctrl+F)"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        updatePlaceholder();
    });
    m_stateFilter->setObjectName(QStringLiteral("stateFilterCombo"));
    m_stateFilter->addItem(tr("All states"), int(GroupFilterProxyModel::StateFilter::All));
    m_stateFilter->addItem(tr("Stable"), int(GroupFilterProxyModel::StateFilter::Stable));
    m_stateFilter->addItem(tr("Empty"), int(GroupFilterProxyModel::StateFilter::Empty));
    m_stateFilter->addItem(tr("Rebalancing"), int(GroupFilterProxyModel::StateFilter::Rebalancing));
    m_stateFilter->addItem(tr("Dead"), int(GroupFilterProxyModel::StateFilter::Dead));
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setStateFilter(
            GroupFilterProxyModel::StateFilter(m_stateFilter->currentData().toInt()));
        updatePlaceholder();
    });
}

void MainWindow::setUpGroupTable() {
    m_view->setObjectName(QStringLiteral("groupTable"));
    m_view->setAccessibleName(tr("Group list"));
    m_view->setModel(m_proxy);
    // Text cells, the health verdict's coloured one included, are painted straight
    // (TextCellDelegate): at 10,000 groups most visible cells change on every refresh.
    m_view->setItemDelegate(new TextCellDelegate(m_view));
    m_view->setItemDelegateForColumn(GroupListModel::StateColumn,
                                     new GroupStateBadgeDelegate(m_view));
    m_view->setItemDelegateForColumn(
        GroupListModel::LagTrendColumn,
        new LagSparklineDelegate(GroupListModel::LagTrendRole, m_view));
    m_view->setUpAsRowList(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(GroupListModel::GroupColumn, Qt::AscendingOrder);
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(GroupListModel::GroupColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(GroupListModel::WatchColumn, QHeaderView::Fixed);
    header->resizeSection(GroupListModel::WatchColumn, m_view->fontMetrics().height() + 14);
    header->resizeSection(GroupListModel::StateColumn, 150);
    header->resizeSection(GroupListModel::TypeColumn, 90);
    header->resizeSection(GroupListModel::MembersColumn, 90);
    header->resizeSection(GroupListModel::TopicsColumn, 80);
    header->resizeSection(GroupListModel::TotalLagColumn, 120);
    header->resizeSection(GroupListModel::TimeLagColumn, 100);
    header->resizeSection(GroupListModel::HealthColumn, 80);
    header->resizeSection(GroupListModel::LagTrendColumn, 130);
    header->resizeSection(GroupListModel::ProtocolColumn, 200);
    enableCopyAsTsv(m_view);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &MainWindow::updatePlaceholder);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updatePlaceholder);
    // Enter and double-click both "activate" a row in Qt's views.
    connect(m_view, &QAbstractItemView::activated, this, &MainWindow::openCurrentGroup);
}

void MainWindow::setUpLayout() {
    auto* browser = new QWidget(this);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_stateFilter);
    auto* browserLayout = new QVBoxLayout(browser);
    browserLayout->setContentsMargins(8, 8, 8, 0);
    browserLayout->addLayout(filterRow);
    browserLayout->addWidget(m_view);
    m_detail->setObjectName(QStringLiteral("groupDetail"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    // Groups and Topics: two ways into the same refresh; the detail below serves both.
    m_browserTabs->setObjectName(QStringLiteral("browserTabs"));
    m_browserTabs->setDocumentMode(true);
    m_browserTabs->addTab(browser, tr("Groups"));
    m_browserTabs->addTab(m_topics, tr("Topics"));
    connect(m_topics, &TopicsView::groupActivated, this,
            [this](const QString& groupId) { openGroup(groupId); });
    m_splitter->addWidget(m_browserTabs);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    // The first window shows the list and the detail about equally (a saved layout wins):
    // stretch factors alone share only the space beyond each side's size hint.
    m_splitter->setSizes({450, 550});
    m_splitter->setChildrenCollapsible(false);
    // The profile's colour runs along the window's top edge, so that two windows on two
    // clusters are told apart at a glance (showProfile).
    m_colourBar->setObjectName(QStringLiteral("profileColourBar"));
    m_colourBar->setFixedHeight(5);
    m_colourBar->hide();
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_colourBar);
    centralLayout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    connect(m_detail, &GroupDetailWidget::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_resetController, &ResetController::offsetsChanged, this, [this] {
        if (m_monitor)
            m_monitor->refreshNow(); // show the new committed offsets at once
    });
}

void MainWindow::setUpStatusBar() {
    m_statusLabel->setObjectName(QStringLiteral("connectionStatus"));
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long error texts are cut by the status bar; the tooltip holds the whole text.
    m_statusLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_refreshLabel->setObjectName(QStringLiteral("lastRefresh"));
    m_modeLabel->setObjectName(QStringLiteral("connectionMode"));
    m_profileLabel->setObjectName(QStringLiteral("profileLabel"));
    // The profile and the connection's state are normal widgets, which a temporary message
    // ("Deleted g; Undo in the History tab…") replaces for its few seconds: a permanent
    // widget that stretches would leave such a message no room at all.
    statusBar()->addWidget(m_profileLabel);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_modeLabel);
    statusBar()->addPermanentWidget(m_refreshLabel);
}

MainWindow::~MainWindow() {
    saveLayout();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveLayout();
    // Asked for: the window goes, the monitor and its alerts stay, in the tray.
    if (!s_quitting && WatchStore::keepRunningInTray() &&
        QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray->show();
        hide();
        event->ignore();
        return;
    }
    if (closeWaitsForWrite()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::quit() {
    s_quitting = true;
    QApplication::closeAllWindows();
    // A window that closes once its write is done quits the application then.
    if (!anyWindowWaitsForItsWrite())
        QCoreApplication::quit();
}

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
        statusBar()->showMessage(exportShownRows(this, m_view, tr("groups")), 8000);
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
    QAction* keepInTray = fileMenu->addAction(tr("&Keep running in the tray when closed"));
    keepInTray->setObjectName(QStringLiteral("keepRunningInTrayAction"));
    keepInTray->setCheckable(true);
    keepInTray->setChecked(WatchStore::keepRunningInTray());
    connect(keepInTray, &QAction::toggled, this, &MainWindow::setKeepRunningInTray);
    QAction* quitAction = fileMenu->addAction(tr("&Quit"));
    quitAction->setShortcut(QKeySequence::Quit);
    connect(quitAction, &QAction::triggered, this, &MainWindow::quit);

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* filterAction = viewMenu->addAction(tr("&Filter groups"));
    filterAction->setShortcut(QKeySequence::Find);
    connect(filterAction, &QAction::triggered, this, [this] {
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    QAction* listAction = viewMenu->addAction(tr("Group &list"));
    listAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(listAction, &QAction::triggered, this, [this] {
        m_browserTabs->setCurrentIndex(0);
        m_view->setFocus(Qt::ShortcutFocusReason);
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

    createAlertActions(fileMenu, viewMenu, groupMenu);
    createDeleteActions(groupMenu);

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

QTableView* MainWindow::groupView() const {
    return m_view;
}

QString MainWindow::connectionStatusText() const {
    return m_statusLabel->text();
}

bool MainWindow::isReadOnly() const {
    return m_connection.readOnly;
}

void MainWindow::setRefreshInterval(std::chrono::milliseconds interval) {
    m_refreshInterval = interval;
    if (m_monitor)
        m_monitor->setInterval(interval);
}

void MainWindow::connectTo(const kafka::ConnectionProfile& profile) {
    SavedConnection connection;
    connection.profile = profile;
    connection.refreshInterval = m_refreshInterval;
    connectTo(connection);
}

void MainWindow::connectTo(const SavedConnection& connection) {
    if (m_monitor) {
        // The old monitor may be in the middle of an Admin call: let it finish on its own
        // thread and delete itself, rather than waiting for it here.
        ClusterMonitor* old = m_monitor;
        disconnect(old, nullptr, this, nullptr);
        connect(old, &ClusterMonitor::stopped, old, &QObject::deleteLater);
        old->stop();
    }
    if (!m_connection.profile.bootstrapServers.isEmpty())
        saveLayout(); // what the previous profile's window looked like
    const kafka::ConnectionProfile& profile = connection.profile;
    m_connection = connection;
    if (connection.isSavedProfile) {
        const WindowLayout layout = WindowLayoutStore::load(connection.displayName());
        applyLayout(layout, !isVisible());
        if (m_groupToOpen.isEmpty() && !layout.openGroup.isEmpty())
            m_groupToOpen = layout.openGroup;
    }
    m_refreshInterval = connection.refreshInterval;
    m_lastGoodRefresh = {};
    m_lastFailure.clear();
    m_lastView = {};
    m_model->applySummaries({});
    m_topics->applyConsumers({});
    showProfile();
    showStatus(tr("Connecting to %1…").arg(profile.bootstrapServers), false);
    m_refreshLabel->clear();

    const QString name = connection.displayName();
    m_resetController->setReadOnly(
        connection.readOnly,
        tr("The connection profile “%1” is read-only: offsets cannot be changed from it.")
            .arg(name));
    // What this connection cannot do: change offsets (read-only), or show what only
    // Groupscope's own group protocol client reads (the profile needs librdkafka).
    QStringList modes;
    QStringList reasons;
    if (connection.readOnly) {
        modes.append(tr("Read-only"));
        reasons.append(m_resetController->readOnlyReason());
    } else if (connection.production) {
        modes.append(tr("Production"));
        reasons.append(tr("Every write asks a second time, for the profile's name."));
    }
    if (const QString note = kafka::GroupClientChoice::forProfile(profile).fallbackNote();
        !note.isEmpty()) {
        modes.append(tr("Groups via librdkafka"));
        reasons.append(note);
    }
    m_modeLabel->setText(modes.join(QStringLiteral(" · ")));
    m_modeLabel->setToolTip(reasons.join(u'\n'));
    m_modeLabel->setVisible(!modes.isEmpty());

    // Watched groups and thresholds are the connection's: each starts with a baseline.
    m_alerts->setConnection(name);

    // A write still running on the previous connection completes or stops there
    // (ResetController::setRunner); its outcome comes as writeFinished.
    m_resetController->setRunner(
        new monitor::AdminTaskRunner(profile, std::chrono::milliseconds(15000)));
    m_monitor = new ClusterMonitor(profile, this);
    m_monitor->setInterval(m_refreshInterval);
    m_monitor->setListRows(true); // the group list and the Topics tab
    m_monitor->setRebalanceThresholds(m_alerts->rebalanceThresholds());
    // The open group stays open on the new cluster, watched from the first refresh.
    const QString open = m_groupToOpen.isEmpty() ? m_detail->groupId() : m_groupToOpen;
    if (!open.isEmpty())
        m_monitor->setWatchedGroups({open});
    connect(m_monitor, &ClusterMonitor::viewReady, this, &MainWindow::applyView);
    connect(m_monitor, &ClusterMonitor::refreshFailed, this, &MainWindow::showRefreshFailure);
    m_monitor->start();
}

void MainWindow::askForConnection() {
    if (const auto chosen = ConnectionManagerDialog::choose(this))
        connectTo(*chosen);
}

void MainWindow::updateTitle() {
    const QString servers = m_connection.profile.bootstrapServers;
    const QString name = m_connection.displayName();
    QString title = name == servers ? name : tr("%1 (%2)").arg(name, servers);
    if (m_lastGoodRefresh.isValid())
        title = tr("%1 — %2").arg(title, groupCount(m_model->rowCount()));
    if (m_connection.production)
        title = tr("%1 [production]").arg(title);
    setWindowTitle(tr("Groupscope — %1").arg(title));
}

void MainWindow::openCurrentGroup() {
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    openGroup(current.data(GroupListModel::GroupIdRole).toString());
    m_detail->tabs()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::openGroup(QString groupId) {
    // Watched from now on: its detail comes with the next view, which follows at once.
    if (m_monitor)
        m_monitor->setWatchedGroups({groupId});
    if (const monitor::GroupSnapshot* group = m_lastView.group(groupId)) {
        m_groupToOpen.clear();
        m_detail->openGroup(groupId, group);
        if (const int row = m_model->rowOf(groupId); row >= 0) {
            const QModelIndex shown = m_proxy->mapFromSource(m_model->index(row, 0));
            if (shown.isValid() && m_view->currentIndex().row() != shown.row())
                m_view->selectionModel()->setCurrentIndex(
                    shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        }
        return;
    }
    // Not listed yet (first refresh pending, or --group for a group still coming up).
    m_groupToOpen = groupId;
    m_detail->openGroup(groupId);
}

void MainWindow::applyView(const ClusterView& view) {
    // The view replaced here holds the last references to the previous refresh's snapshots
    // and summaries: a pool thread frees them, not the GUI, once the list has let go of
    // its rows.
    monitor::ClusterView previous = std::exchange(m_lastView, view);
    m_model->applySummaries(view.groupList);
    m_topics->applyConsumers(view.topicConsumers);
    monitor::releaseInBackground(std::move(previous));
    if (!m_groupToOpen.isEmpty())
        openGroup(m_groupToOpen);
    m_detail->applyView(view);
    m_alerts->applyView(view, view.cluster.takenAt.isValid()
                                  ? view.cluster.takenAt.toMSecsSinceEpoch()
                                  : QDateTime::currentMSecsSinceEpoch());
    m_lastGoodRefresh =
        view.cluster.takenAt.isValid() ? view.cluster.takenAt : QDateTime::currentDateTime();
    const int groups = m_model->rowCount();
    updateTitle();
    // The time of the refresh is in its own permanent label beside this one.
    QString status =
        tr("Connected to %1 — %2").arg(m_connection.profile.bootstrapServers, groupCount(groups));
    // Records of __consumer_offsets this build could not read are skipped, not fatal: the
    // timelines are then missing those events, which the user should know.
    if (const auto& skips = view.offsetsTopicSkips; skips.total() > 0)
        status +=
            (skips.total() == 1 ? tr(" — offsets topic: 1 record skipped")
                                : tr(" — offsets topic: %1 records skipped").arg(skips.total())) +
            (skips.lastDecodeError.isEmpty() ? QString()
                                             : tr(" (last: %1)").arg(skips.lastDecodeError));
    showStatus(status, false);
    m_refreshLabel->setText(tr("Last refresh %1").arg(timeOfDay(m_lastGoodRefresh)));
}

void MainWindow::showRefreshFailure(const QString& message) {
    // The age of what is on screen goes first: error texts can be long and get cut off.
    const QString failedAt = timeOfDay(QDateTime::currentDateTime());
    const QString text = m_lastGoodRefresh.isValid()
                             ? tr("Refresh failed at %1, showing data from %2 — %3")
                                   .arg(failedAt, timeOfDay(m_lastGoodRefresh), message)
                             : tr("Refresh failed at %1 — %2").arg(failedAt, message);
    m_lastFailure = message;
    showStatus(text, true);
}

void MainWindow::showStatus(const QString& text, bool isError) {
    m_statusIsError = isError;
    m_statusLabel->setText(text);
    m_statusLabel->setToolTip(text);
    m_statusLabel->setStyleSheet(isError ? QStringLiteral("color: %1;").arg(errorColour(palette()))
                                         : QString());
    updatePlaceholder();
}

void MainWindow::updatePlaceholder() {
    QString text;
    if (m_connection.profile.bootstrapServers.isEmpty())
        text = tr("Not connected. Use File › Connections… to choose a cluster.");
    else if (!m_lastGoodRefresh.isValid())
        text = m_statusIsError ? tr("Cannot reach %1.\n\n%2")
                                     .arg(m_connection.profile.bootstrapServers, m_lastFailure)
                               : tr("Connecting to %1…").arg(m_connection.profile.bootstrapServers);
    else if (m_model->rowCount() == 0)
        text = tr("No consumer groups on this cluster yet.\nA group appears here once a "
                  "consumer joins it or commits offsets.");
    else if (m_proxy->filterText().isEmpty())
        text = tr("No group is in state “%1”.").arg(m_stateFilter->currentText());
    else
        text = tr("No group or topic matches “%1”.").arg(m_proxy->filterText());
    m_view->setPlaceholderText(text);
}

} // namespace groupscope::ui
