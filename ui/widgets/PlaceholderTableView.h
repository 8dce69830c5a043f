#pragma once

#include <QTableView>

namespace groupscope::ui {

// A table view that says why it is empty ("Connecting…", "No consumer groups", "No group
// matches") instead of showing a blank white area.
class PlaceholderTableView : public QTableView {
    Q_OBJECT
public:
    using QTableView::QTableView;

    QString placeholderText() const { return m_placeholderText; }
    void setPlaceholderText(const QString& text);
    // A read-only list of one-line rows, as the group list and the Topics tab are: whole
    // rows selected (`mode`), no editing, alternating rows, no grid, no row numbers.
    void setUpAsRowList(SelectionMode mode);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_placeholderText;
};

} // namespace groupscope::ui
