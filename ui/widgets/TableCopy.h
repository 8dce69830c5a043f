#pragma once

#include <QByteArray>
#include <QList>
#include <QStringList>

class QAbstractItemView;
class QWidget;

namespace groupscope::ui {

// Rows of a view as it shows them (its model's order: filtered and sorted), its visible
// columns only, each cell its display text.
struct ShownRows {
    QStringList header;
    QList<QStringList> rows;
};
// `rows` in view order; every row when `rows` is empty.
ShownRows shownRows(const QAbstractItemView* view, QList<int> rows = {});
QByteArray csvOf(const ShownRows& shown);  // a header line, quoted where RFC 4180 needs it
QByteArray jsonOf(const ShownRows& shown); // an array of objects keyed by the header
// Asks for a file (CSV or JSON by its suffix) and writes every row of `view` there; returns
// what happened, for the status bar.
QString exportShownRows(QWidget* parent, const QAbstractItemView* view, const QString& what);

// Ctrl+C (the platform's Copy) on `view` copies the selected rows as tab-separated text,
// with a header line, as shown on screen: paste lands cleanly in a spreadsheet or a ticket.
void enableCopyAsTsv(QAbstractItemView* view);

} // namespace groupscope::ui
