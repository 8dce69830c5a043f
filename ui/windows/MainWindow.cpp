#include "windows/MainWindow.h"

#include "delegates/GroupStateBadgeDelegate.h"
#include "dialogs/ConnectionDialog.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "monitor/ClusterPoller.h"
#include "widgets/ApplicationIcon.h"
#include "widgets/PlaceholderTableView.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QStatusBar>
#include <QVBoxLayout>

namespace groupscope::ui {

using monitor::ClusterPoller;
using monitor::ClusterSnapshot;

namespace {

QString timeOfDay(const QDateTime& time) {
    return time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

QString groupCount(int groups) {
    return groups == 1 ? MainWindow::tr("1 group") : MainWindow::tr("%1 groups").arg(groups);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new GroupListModel(this))
    , m_proxy(new GroupFilterProxyModel(this))
    , m_view(new PlaceholderTableView(this))
    , m_filterEdit(new QLineEdit(this))
    , m_statusLabel(new QLabel(this)) {
    setWindowTitle(tr("Groupscope"));
    setWindowIcon(applicationIcon());
    resize(1100, 650);

    m_proxy->setSourceModel(m_model);

    m_filterEdit->setObjectName(QStringLiteral("groupFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by group or topic"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        updatePlaceholder();
    });

    m_view->setObjectName(QStringLiteral("groupTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(GroupListModel::StateColumn,
                                     new GroupStateBadgeDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 12);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(GroupListModel::GroupColumn, Qt::AscendingOrder);
    QHeaderView* header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionResizeMode(GroupListModel::GroupColumn, QHeaderView::Stretch);
    header->resizeSection(GroupListModel::StateColumn, 190);
    header->resizeSection(GroupListModel::MembersColumn, 110);
    header->resizeSection(GroupListModel::TopicsColumn, 110);
    header->resizeSection(GroupListModel::TotalLagColumn, 150);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &MainWindow::updatePlaceholder);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updatePlaceholder);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 0);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_view);
    setCentralWidget(central);

    m_statusLabel->setObjectName(QStringLiteral("connectionStatus"));
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long error texts are cut by the status bar; the tooltip holds the whole text.
    m_statusLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(m_statusLabel, 1);

    createMenus();
    showStatus(tr("Not connected"), false);
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction = fileMenu->addAction(tr("&Connect…"));
    connectAction->setShortcut(QKeySequence::Open);
    connect(connectAction, &QAction::triggered, this, &MainWindow::askForConnection);
    QAction* refreshAction = fileMenu->addAction(tr("&Refresh now"));
    refreshAction->setShortcut(QKeySequence::Refresh);
    connect(refreshAction, &QAction::triggered, this, [this] {
        if (m_poller)
            m_poller->refreshNow();
    });
    fileMenu->addSeparator();
    QAction* quitAction = fileMenu->addAction(tr("&Quit"));
    quitAction->setShortcut(QKeySequence::Quit);
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
}

QTableView* MainWindow::groupView() const {
    return m_view;
}

QString MainWindow::connectionStatusText() const {
    return m_statusLabel->text();
}

void MainWindow::setRefreshInterval(std::chrono::milliseconds interval) {
    m_refreshInterval = interval;
    if (m_poller)
        m_poller->setInterval(interval);
}

void MainWindow::connectTo(const kafka::ConnectionProfile& profile) {
    if (m_poller) {
        // The old poller may be in the middle of an Admin call: let it finish on its own
        // thread and delete itself, rather than waiting for it here.
        ClusterPoller* old = m_poller;
        disconnect(old, nullptr, this, nullptr);
        connect(old, &ClusterPoller::stopped, old, &QObject::deleteLater);
        old->stop();
    }
    m_profile = profile;
    m_lastGoodRefresh = {};
    m_lastFailure.clear();
    m_model->applySnapshot({});
    setWindowTitle(tr("Groupscope — %1").arg(profile.bootstrapServers));
    showStatus(tr("Connecting to %1…").arg(profile.bootstrapServers), false);

    m_poller = new ClusterPoller(profile, this);
    m_poller->setInterval(m_refreshInterval);
    connect(m_poller, &ClusterPoller::snapshotReady, this, &MainWindow::applySnapshot);
    connect(m_poller, &ClusterPoller::refreshFailed, this, &MainWindow::showRefreshFailure);
    m_poller->start();
}

void MainWindow::askForConnection() {
    if (const auto servers = ConnectionDialog::askForBootstrapServers(this)) {
        kafka::ConnectionProfile profile = m_profile;
        profile.bootstrapServers = *servers;
        connectTo(profile);
    }
}

void MainWindow::applySnapshot(const ClusterSnapshot& snapshot) {
    m_model->applySnapshot(snapshot);
    m_lastGoodRefresh =
        snapshot.takenAt.isValid() ? snapshot.takenAt : QDateTime::currentDateTime();
    const int groups = m_model->rowCount();
    setWindowTitle(tr("Groupscope — %1 (%2)").arg(m_profile.bootstrapServers, groupCount(groups)));
    showStatus(
        tr("Connected to %1 — %2 — refreshed %3")
            .arg(m_profile.bootstrapServers, groupCount(groups), timeOfDay(m_lastGoodRefresh)),
        false);
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
    m_statusLabel->setStyleSheet(isError ? QStringLiteral("color: #b42318;") : QString());
    updatePlaceholder();
}

void MainWindow::updatePlaceholder() {
    QString text;
    if (m_profile.bootstrapServers.isEmpty())
        text = tr("Not connected. Use File › Connect… to choose a cluster.");
    else if (!m_lastGoodRefresh.isValid())
        text = m_statusIsError
                   ? tr("Cannot reach %1.\n\n%2").arg(m_profile.bootstrapServers, m_lastFailure)
                   : tr("Connecting to %1…").arg(m_profile.bootstrapServers);
    else if (m_model->rowCount() == 0)
        text = tr("No consumer groups on this cluster yet.\nA group appears here once a "
                  "consumer joins it or commits offsets.");
    else
        text = tr("No group or topic matches “%1”.").arg(m_proxy->filterText());
    m_view->setPlaceholderText(text);
}

} // namespace groupscope::ui
