#pragma once

#include <QString>
#include <QWidget>

#include <optional>

namespace groupscope::ui {

// QFileDialog with a test hook (as KeePassXC's FileDialog::setNextFileName): a test sets
// the next answer and no modal dialog is shown.
class FileChooser {
public:
    // Empty on Cancel.
    static QString openFile(QWidget* parent, const QString& caption, const QString& filter);
    static QString saveFile(QWidget* parent, const QString& caption, const QString& suggested,
                            const QString& filter);
    static void setNextFileName(std::optional<QString> path);
};

} // namespace groupscope::ui
