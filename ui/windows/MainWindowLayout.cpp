// What each profile's window remembers of itself (WindowLayoutStore): layout, column
// widths, sort, filter and open group; and the windows of other profiles (File > New
// window).

#include "windows/MainWindow.h"

#include "dialogs/ConnectionManagerDialog.h"
#include "widgets/GroupBrowser.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSplitter>
#include <QTabWidget>

namespace groupscope::ui {

WindowLayout MainWindow::currentLayout() const {
    WindowLayout layout;
    layout.geometry = saveGeometry();
    layout.splitter = m_splitter->saveState();
    layout.docks = saveState(); // the alerts
    layout.groupColumns = m_browser->view()->horizontalHeader()->saveState();
    layout.partitionColumns = m_detail->partitionView()->horizontalHeader()->saveState();
    layout.offsetColumns = m_detail->offsetPanel()->view()->horizontalHeader()->saveState();
    layout.filterText = m_browser->filterEdit()->text();
    layout.stateFilter = m_browser->stateFilter()->currentIndex();
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
    QTableView* list = m_browser->view();
    QHeaderView* header = list->horizontalHeader();
    if (header->restoreState(layout.groupColumns))
        list->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    m_detail->partitionView()->horizontalHeader()->restoreState(layout.partitionColumns);
    m_detail->offsetPanel()->view()->horizontalHeader()->restoreState(layout.offsetColumns);
    m_browser->filterEdit()->setText(layout.filterText);
    if (QComboBox* states = m_browser->stateFilter();
        layout.stateFilter >= 0 && layout.stateFilter < states->count())
        states->setCurrentIndex(layout.stateFilter);
    if (layout.browserTab >= 0 && layout.browserTab < m_browserTabs->count())
        m_browserTabs->setCurrentIndex(layout.browserTab);
}

void MainWindow::saveLayout() const {
    // Without a saved profile, only the sizes are kept, as the start of the next window.
    WindowLayoutStore::save(connection().isSavedProfile ? connection().displayName() : QString(),
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

} // namespace groupscope::ui
