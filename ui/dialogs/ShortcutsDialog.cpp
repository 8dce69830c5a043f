#include "dialogs/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace groupscope::ui {

namespace {

QString plainText(QString text) {
    text.remove(u'&');
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

// The menu an action sits in ("Group menu"), else the widget it belongs to.
QString whereOf(const QAction* action) {
    for (const QObject* widget : action->associatedObjects())
        if (const auto* menu = qobject_cast<const QMenu*>(widget))
            return ShortcutsDialog::tr("%1 menu").arg(plainText(menu->title()));
    const auto* owner = qobject_cast<const QWidget*>(action->parent());
    if (owner && !owner->accessibleName().isEmpty())
        return owner->accessibleName();
    return ShortcutsDialog::tr("Any table");
}

} // namespace

QList<ShortcutsDialog::Shortcut> ShortcutsDialog::shortcutsOf(const QWidget* window) {
    QList<Shortcut> shortcuts;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcut().isEmpty() || action->text().isEmpty())
            continue;
        Shortcut shortcut{whereOf(action), plainText(action->text()),
                          action->shortcut().toString(QKeySequence::NativeText)};
        const bool known = std::any_of(shortcuts.cbegin(), shortcuts.cend(), [&](const auto& s) {
            return s.where == shortcut.where && s.action == shortcut.action &&
                   s.keys == shortcut.keys;
        });
        if (!known)
            shortcuts.append(shortcut);
    }
    std::sort(shortcuts.begin(), shortcuts.end(), [](const Shortcut& a, const Shortcut& b) {
        return a.where != b.where ? a.where < b.where : a.action < b.action;
    });
    return shortcuts;
}

ShortcutsDialog::ShortcutsDialog(const QList<Shortcut>& shortcuts, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(int(shortcuts.size()), 3, this);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int row = 0; row < shortcuts.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(shortcuts.at(row).where));
        table->setItem(row, 1, new QTableWidgetItem(shortcuts.at(row).action));
        table->setItem(row, 2, new QTableWidgetItem(shortcuts.at(row).keys));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(640, 560);
}

} // namespace groupscope::ui
