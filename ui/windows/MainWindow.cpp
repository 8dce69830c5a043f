#include "windows/MainWindow.h"

#include "controllers/AlertController.h"
#include "controllers/GroupDeleteController.h"
#include "controllers/ProfileController.h"
#include "controllers/ResetController.h"
#include "controllers/WindowAlertsController.h"
#include "controllers/WriteNoticeController.h"
#include "dialogs/ConnectionManagerDialog.h"
#include "models/GroupListModel.h"
#include "monitor/AdminTaskRunner.h"
#include "monitor/ClusterMonitor.h"
#include "widgets/AlertPanel.h"
#include "widgets/ApplicationIcon.h"
#include "widgets/GroupBrowser.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TopicsView.h"

#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QVBoxLayout>

namespace groupscope::ui {

using monitor::ClusterMonitor;
using monitor::ClusterView;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_browser(new GroupBrowser(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_browserTabs(new QTabWidget(this))
    , m_topics(new TopicsView(this))
    , m_resetController(new ResetController(this))
    , m_detail(new GroupDetailWidget(m_resetController, this))
    , m_profile(new ProfileController(this, m_resetController))
    , m_alerts(new WindowAlertsController(
          this, m_browser->model(), m_browser->view(),
          [this] { return m_browser->selectedGroups(); }, [this] { return currentGroup(); }))
    , m_deletes(new GroupDeleteController(
          this, m_resetController, m_detail, [this] { return m_browser->selectedGroups(); },
          [this] { return m_profile->connection().profile.bootstrapServers; }))
    , m_writes(new WriteNoticeController(this, m_resetController, m_alerts,
                                         [this] { return connection().displayName(); }))
    , m_status(new ConnectionStatus(this, m_profile))
    , m_replacedViews(new ReleaseAfterRepaint(this)) {
    setWindowTitle(tr("Groupscope"));
    setWindowIcon(applicationIcon());
    resize(1200, 800);

    setUpLayout();
    setUpControllers();
    createMenus();
    applyLayout(WindowLayoutStore::load({}), true);
    m_status->showNotConnected();
}

void MainWindow::setUpLayout() {
    m_detail->setObjectName(QStringLiteral("groupDetail"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    // Groups and Topics: two ways into the same refresh; the detail below serves both.
    m_browserTabs->setObjectName(QStringLiteral("browserTabs"));
    m_browserTabs->setDocumentMode(true);
    m_browserTabs->addTab(m_browser, tr("Groups"));
    m_browserTabs->addTab(m_topics, tr("Topics"));
    m_splitter->addWidget(m_browserTabs);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    // The first window shows the list and the detail about equally (a saved layout wins):
    // stretch factors alone share only the space beyond each side's size hint.
    m_splitter->setSizes({450, 550});
    m_splitter->setChildrenCollapsible(false);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_profile->colourBar());
    centralLayout->addWidget(m_splitter, 1);
    setCentralWidget(central);
}

void MainWindow::setUpControllers() {
    connect(m_status, &ConnectionStatus::changed, this,
            [this] { m_browser->setUnavailableText(m_status->unavailableText()); });
    connect(m_browser, &GroupBrowser::groupActivated, this, &MainWindow::openCurrentGroup);
    connect(m_topics, &TopicsView::groupActivated, this,
            [this](const QString& groupId) { openGroup(groupId); });
    connect(m_detail, &GroupDetailWidget::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_resetController, &ResetController::offsetsChanged, this, [this] {
        if (m_monitor)
            m_monitor->refreshNow(); // show the new committed offsets at once
    });
    connect(m_deletes, &GroupDeleteController::groupsDeleted, this,
            [this](const QStringList& groups) { openGroup(groups.first()); });
    connect(m_alerts, &WindowAlertsController::showRequested, this, &MainWindow::showFromTray);
    connect(m_alerts, &WindowAlertsController::quitRequested, this, &MainWindow::quit);
    connect(m_alerts, &WindowAlertsController::groupActivated, this, [this](const QString& group) {
        showFromTray();
        openGroup(group);
    });
    connect(m_alerts->alerts(), &AlertController::rebalanceThresholdsChanged, this,
            [this](const QHash<QString, lag::RebalanceThresholds>& thresholds) {
                if (m_monitor)
                    m_monitor->setRebalanceThresholds(thresholds);
            });
}

MainWindow::~MainWindow() {
    saveLayout();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveLayout();
    // Asked for: the window goes, the monitor and its alerts stay, in the tray.
    if (m_alerts->hideToTrayOnClose(WriteNoticeController::isQuitting())) {
        hide();
        event->ignore();
        return;
    }
    if (m_writes->closeMustWait()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::quit() {
    WriteNoticeController::setQuitting(); // no window then stays in the tray
    QApplication::closeAllWindows();
    // A window that closes once its write is done quits the application then.
    if (!WriteNoticeController::anyWindowWaitsForItsWrite())
        QCoreApplication::quit();
}

void MainWindow::showFromTray() {
    showNormal();
    raise();
    activateWindow();
}

QTableView* MainWindow::groupView() const {
    return m_browser->view();
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
    if (!this->connection().profile.bootstrapServers.isEmpty())
        saveLayout(); // what the previous profile's window looked like
    const kafka::ConnectionProfile& profile = connection.profile;
    m_profile->setConnection(connection);
    if (connection.isSavedProfile) {
        const WindowLayout layout = WindowLayoutStore::load(connection.displayName());
        applyLayout(layout, !isVisible());
        if (m_groupToOpen.isEmpty() && !layout.openGroup.isEmpty())
            m_groupToOpen = layout.openGroup;
    }
    m_refreshInterval = connection.refreshInterval;
    m_lastView = {};
    m_browser->model()->applySummaries({});
    m_topics->applyConsumers({});
    m_alerts->setProfileName(connection.displayName());
    m_status->showConnecting(profile.bootstrapServers);
    updateTitle();

    // Watched groups and thresholds are the connection's: each starts with a baseline.
    AlertController* alerts = m_alerts->alerts();
    alerts->setConnection(connection.displayName());

    // A write still running on the previous connection completes or stops there
    // (ResetController::setRunner); its outcome comes as writeFinished.
    m_resetController->setRunner(
        new monitor::AdminTaskRunner(profile, std::chrono::milliseconds(15000)));
    m_monitor = new ClusterMonitor(profile, this);
    m_monitor->setInterval(m_refreshInterval);
    m_monitor->setListRows(true); // the group list and the Topics tab
    m_monitor->setRebalanceThresholds(alerts->rebalanceThresholds());
    // The open group stays open on the new cluster, watched from the first refresh.
    const QString open = m_groupToOpen.isEmpty() ? m_detail->groupId() : m_groupToOpen;
    if (!open.isEmpty())
        m_monitor->setWatchedGroups({open});
    connect(m_monitor, &ClusterMonitor::viewReady, this, &MainWindow::applyView);
    connect(m_monitor, &ClusterMonitor::refreshFailed, m_status, &ConnectionStatus::showFailure);
    m_monitor->start();
}

void MainWindow::askForConnection() {
    if (const auto chosen = ConnectionManagerDialog::choose(this))
        connectTo(*chosen);
}

void MainWindow::updateTitle() {
    setWindowTitle(m_profile->windowTitle(m_status->hasRefreshed()
                                              ? std::optional<int>(m_browser->model()->rowCount())
                                              : std::nullopt));
}

QString MainWindow::currentGroup() const {
    const QString listed = m_browser->currentGroup();
    return listed.isEmpty() ? m_detail->groupId() : listed;
}

void MainWindow::openCurrentGroup() {
    const QString current = m_browser->currentGroup();
    if (current.isEmpty())
        return;
    openGroup(current);
    m_detail->tabs()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::openGroup(QString groupId) {
    // Watched from now on: its detail comes with the next view, which follows at once.
    if (m_monitor)
        m_monitor->setWatchedGroups({groupId});
    if (const monitor::GroupSnapshot* group = m_lastView.group(groupId)) {
        m_groupToOpen.clear();
        m_detail->openGroup(groupId, group);
        m_browser->selectGroup(groupId);
        return;
    }
    // Not in the view in full: listed but not watched until now (its full snapshot comes
    // with the view that follows), or not listed yet (first refresh pending, or --group for
    // a group still coming up).
    m_groupToOpen = groupId;
    m_detail->openGroup(groupId);
}

void MainWindow::applyView(const ClusterView& view) {
    // The view replaced here holds the last references to the previous refresh's snapshots
    // and summaries: a pool thread frees them, not the GUI, once the list has let go of
    // its rows and this refresh is painted.
    monitor::ClusterView previous = std::exchange(m_lastView, view);
    m_browser->model()->applySummaries(view.groupList);
    m_topics->applyConsumers(view.topicConsumers);
    if (!m_groupToOpen.isEmpty())
        openGroup(m_groupToOpen);
    m_detail->applyView(view);
    m_alerts->alerts()->applyView(view, view.cluster.takenAt.isValid()
                                            ? view.cluster.takenAt.toMSecsSinceEpoch()
                                            : QDateTime::currentMSecsSinceEpoch());
    m_status->showConnected(view, m_browser->model()->rowCount());
    updateTitle();
    m_replacedViews->release(std::move(previous));
}

} // namespace groupscope::ui
