#include "dialogs/FileChooser.h"

#include <QFileDialog>

namespace groupscope::ui {

namespace {

std::optional<QString>& nextFileName() {
    static std::optional<QString> path;
    return path;
}

} // namespace

QString FileChooser::openFile(QWidget* parent, const QString& caption, const QString& filter) {
    if (auto path = std::exchange(nextFileName(), std::nullopt))
        return *path;
    return QFileDialog::getOpenFileName(parent, caption, QString(), filter);
}

QString FileChooser::saveFile(QWidget* parent, const QString& caption, const QString& suggested,
                              const QString& filter) {
    if (auto path = std::exchange(nextFileName(), std::nullopt))
        return *path;
    return QFileDialog::getSaveFileName(parent, caption, suggested, filter);
}

void FileChooser::setNextFileName(std::optional<QString> path) {
    nextFileName() = std::move(path);
}

} // namespace groupscope::ui
