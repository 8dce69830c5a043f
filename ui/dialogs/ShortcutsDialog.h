#pragma once

#include <QDialog>
#include <QList>
#include <QString>

namespace groupscope::ui {

// Help > Keyboard shortcuts: every action of a window that has a shortcut, read from the
// window itself (menus and the actions of its views), so the list cannot fall behind.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    struct Shortcut {
        QString where; // "Group menu", or the view the key works in
        QString action;
        QString keys; // in the platform's native text
    };

    explicit ShortcutsDialog(const QList<Shortcut>& shortcuts, QWidget* parent = nullptr);

    // Every QAction under `window` with a shortcut, sorted by where, then action.
    static QList<Shortcut> shortcutsOf(const QWidget* window);
};

} // namespace groupscope::ui
