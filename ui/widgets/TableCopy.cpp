#include "widgets/TableCopy.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTableView>

#include <set>

namespace groupscope::ui {

namespace {

QString selectedRowsAsTsv(QAbstractItemView* view) {
    QAbstractItemModel* model = view->model();
    if (!model || !view->selectionModel())
        return {};
    std::set<int> rows;
    for (const QModelIndex& index : view->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    auto* table = qobject_cast<QTableView*>(view);
    QList<int> columns;
    for (int column = 0; column < model->columnCount(); ++column)
        if (!table || !table->isColumnHidden(column))
            columns.append(column);
    auto clean = [](QString text) {
        return text.replace(QLatin1Char('\t'), QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    QStringList lines;
    QStringList header;
    for (int column : columns)
        header.append(clean(model->headerData(column, Qt::Horizontal).toString()));
    lines.append(header.join(QLatin1Char('\t')));
    for (int row : rows) {
        QStringList fields;
        for (int column : columns)
            fields.append(clean(model->index(row, column).data().toString()));
        lines.append(fields.join(QLatin1Char('\t')));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

void enableCopyAsTsv(QAbstractItemView* view) {
    auto* copy = new QAction(QAbstractItemView::tr("Copy rows"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        if (view->selectionModel() && view->selectionModel()->hasSelection())
            QApplication::clipboard()->setText(selectedRowsAsTsv(view));
    });
    view->addAction(copy);
}

} // namespace groupscope::ui
