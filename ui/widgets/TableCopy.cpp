#include "widgets/TableCopy.h"

#include "dialogs/FileChooser.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTableView>

#include <set>

namespace groupscope::ui {

ShownRows shownRows(const QAbstractItemView* view, QList<int> rows) {
    ShownRows shown;
    const QAbstractItemModel* model = view->model();
    if (!model)
        return shown;
    if (rows.isEmpty())
        for (int row = 0; row < model->rowCount(); ++row)
            rows.append(row);
    const auto* table = qobject_cast<const QTableView*>(view);
    QList<int> columns;
    for (int column = 0; column < model->columnCount(); ++column)
        if (!table || !table->isColumnHidden(column))
            columns.append(column);
    for (int column : columns)
        shown.header.append(model->headerData(column, Qt::Horizontal).toString());
    for (int row : rows) {
        QStringList cells;
        for (int column : columns)
            cells.append(model->index(row, column).data().toString());
        shown.rows.append(cells);
    }
    return shown;
}

QByteArray csvOf(const ShownRows& shown) {
    const auto field = [](const QString& text) {
        if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n'))
            return text;
        QString quoted = text;
        return u'"' + quoted.replace(QStringLiteral("\""), QStringLiteral("\"\"")) + u'"';
    };
    QStringList lines;
    for (const QStringList& cells : QList<QStringList>{shown.header} + shown.rows) {
        QStringList fields;
        for (const QString& cell : cells)
            fields.append(field(cell));
        lines.append(fields.join(u','));
    }
    return (lines.join(u'\n') + u'\n').toUtf8();
}

QByteArray jsonOf(const ShownRows& shown) {
    QJsonArray array;
    for (const QStringList& cells : shown.rows) {
        QJsonObject object;
        for (qsizetype column = 0; column < shown.header.size(); ++column)
            object.insert(shown.header.at(column), cells.value(column));
        array.append(object);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QString exportShownRows(QWidget* parent, const QAbstractItemView* view, const QString& what) {
    const QString path =
        FileChooser::saveFile(parent, QApplication::translate("TableCopy", "Export %1").arg(what),
                              what + QStringLiteral(".csv"),
                              QApplication::translate("TableCopy", "CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return QApplication::translate("TableCopy", "Nothing exported.");
    const ShownRows shown = shownRows(view);
    const bool json = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json ? jsonOf(shown) : csvOf(shown)) < 0 ||
        !file.commit())
        return QApplication::translate("TableCopy", "Not exported: %1: %2")
            .arg(path, file.errorString());
    return QApplication::translate("TableCopy", "Exported %n row(s) to %1", nullptr,
                                   int(shown.rows.size()))
        .arg(path);
}

namespace {

QString selectedRowsAsTsv(QAbstractItemView* view) {
    if (!view->model() || !view->selectionModel())
        return {};
    std::set<int> selected;
    for (const QModelIndex& index : view->selectionModel()->selectedIndexes())
        selected.insert(index.row());
    if (selected.empty())
        return {};
    const ShownRows shown = shownRows(view, QList<int>(selected.begin(), selected.end()));
    auto clean = [](QString text) {
        return text.replace(QLatin1Char('\t'), QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    QStringList lines;
    for (const QStringList& cells : QList<QStringList>{shown.header} + shown.rows) {
        QStringList fields;
        for (const QString& cell : cells)
            fields.append(clean(cell));
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
