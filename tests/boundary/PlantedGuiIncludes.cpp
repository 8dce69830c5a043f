// Never compiled. GUI includes in every spelling the core boundary check must catch; the
// ctest core_include_check_catches_planted runs the check on this folder and expects it to
// find each of the 7 marked lines below plus CoreIncludesWidget.cpp's <QWidget> (8 in all).
// The spellings are the point: clang-format must leave them alone.
// clang-format off
#include <QString>                      // QtCore: allowed
#include <QtCore/QList>                 // QtCore by path: allowed
// #include <QWidget>                   (a comment, not an include: not counted)
#include <QtWidgets/QWidget>            // counted: module path
#include <QtGui>                        // counted: module header
#include <QColor>                       // counted: bare QtGui class header
#  include "qpixmap.h"                  // counted: lower-case QtGui header, quoted
#include <QApplication>                 // counted: bare QtWidgets class header
#include <QtPrintSupport/QPrinter>      // counted: another GUI module
#include <qcustomplot.h>                // counted: QCustomPlot
static const char* text = "a; b [ c";   // list separators in a line do not shift line numbers
// clang-format on
