#pragma once

#include "settings/SavedConnection.h"

#include <QObject>

#include <optional>

class QColor;
class QLabel;
class QMainWindow;
class QWidget;

namespace groupscope::ui {

class ResetController;

// A window's connection profile as the user sees it: its colour along the window's top
// edge, its name (and "production") in the status bar, what the connection cannot do
// (read-only, production asks twice, the librdkafka fallback) beside it, and the window's
// title; and the write rules the profile sets on the window's ResetController.
class ProfileController : public QObject {
    Q_OBJECT
public:
    ProfileController(QMainWindow* window, ResetController* resets);

    // The widgets the window places: the colour bar above everything, the labels in the
    // status bar.
    QWidget* colourBar() const { return m_colourBar; }
    QLabel* profileLabel() const { return m_profileLabel; }
    QLabel* modeLabel() const { return m_modeLabel; }

    // Shows `connection` and sets its write rules.
    void setConnection(const SavedConnection& connection);
    const SavedConnection& connection() const { return m_connection; }
    // The profile's colour; invalid when it has none.
    QColor colour() const;
    // "Groupscope — name (servers) — N groups [production]"; no count before a refresh.
    QString windowTitle(std::optional<int> groups) const;

private:
    void showModes();

    ResetController* m_resets;
    QWidget* m_colourBar;
    QLabel* m_profileLabel;
    QLabel* m_modeLabel;
    SavedConnection m_connection;
};

} // namespace groupscope::ui
