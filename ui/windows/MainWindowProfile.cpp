// MainWindow's connection profile: the window's own (title, colour, production mark), the
// windows of other profiles (File > New window), and what each profile's window remembers
// of itself (WindowLayoutStore): layout, column widths, sort, filter and open group.

#include "windows/MainWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/ConnectionManagerDialog.h"
#include "models/GroupListModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QSystemTrayIcon>
#include <QTabWidget>

namespace groupscope::ui {

WindowLayout MainWindow::currentLayout() const {
    WindowLayout layout;
    layout.geometry = saveGeometry();
    layout.splitter = m_splitter->saveState();
    layout.docks = saveState(); // the alerts
    layout.groupColumns = m_view->horizontalHeader()->saveState();
    layout.partitionColumns = m_detail->partitionView()->horizontalHeader()->saveState();
    layout.offsetColumns = m_detail->offsetPanel()->view()->horizontalHeader()->saveState();
    layout.filterText = m_filterEdit->text();
    layout.stateFilter = m_stateFilter->currentIndex();
    layout.browserTab = m_browserTabs->currentIndex();
    layout.openGroup = m_groupToOpen.isEmpty() ? m_detail->groupId() : m_groupToOpen;
    return layout;
}

void MainWindow::applyLayout(const WindowLayout& layout, bool withGeometry) {
    if (withGeometry)
        restoreGeometry(layout.geometry);
    m_splitter->restoreState(layout.splitter);
    restoreState(layout.docks);
    // The header's state holds the sort column; the proxy sorts when told.
    QHeaderView* header = m_view->horizontalHeader();
    if (header->restoreState(layout.groupColumns))
        m_view->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    m_detail->partitionView()->horizontalHeader()->restoreState(layout.partitionColumns);
    m_detail->offsetPanel()->view()->horizontalHeader()->restoreState(layout.offsetColumns);
    m_filterEdit->setText(layout.filterText);
    if (layout.stateFilter >= 0 && layout.stateFilter < m_stateFilter->count())
        m_stateFilter->setCurrentIndex(layout.stateFilter);
    if (layout.browserTab >= 0 && layout.browserTab < m_browserTabs->count())
        m_browserTabs->setCurrentIndex(layout.browserTab);
}

void MainWindow::saveLayout() const {
    // Without a saved profile, only the sizes are kept, as the start of the next window.
    WindowLayoutStore::save(m_connection.isSavedProfile ? m_connection.displayName() : QString(),
                            currentLayout());
}

void MainWindow::askForNewWindow() {
    if (const auto chosen = ConnectionManagerDialog::choose(this))
        openWindow(*chosen);
}

MainWindow* MainWindow::openWindow(const SavedConnection& connection) {
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->connectTo(connection);
    window->show();
    return window;
}

QColor MainWindow::profileColour() const {
    return QColor(m_connection.colour);
}

void MainWindow::showProfile() {
    const QString name = m_connection.displayName();
    const QColor colour = profileColour();
    m_colourBar->setVisible(colour.isValid());
    m_colourBar->setStyleSheet(
        colour.isValid() ? QStringLiteral("background-color: %1;").arg(colour.name()) : QString());
    m_profileLabel->setText(m_connection.production ? tr("● %1 · production").arg(name)
                                                    : tr("● %1").arg(name));
    m_profileLabel->setStyleSheet(
        colour.isValid() ? QStringLiteral("color: %1; font-weight: bold;").arg(colour.name())
                         : QStringLiteral("font-weight: bold;"));
    m_profileLabel->setVisible(!name.isEmpty());
    m_tray->setToolTip(tr("Groupscope — %1").arg(name));
    m_resetController->setProduction(m_connection.production, name);
    updateTitle();
}

} // namespace groupscope::ui
