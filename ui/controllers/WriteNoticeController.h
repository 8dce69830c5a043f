#pragma once

#include <QObject>

#include <functional>

class QMainWindow;

namespace groupscope::ui {

class ResetController;
class WindowAlertsController;

// A write's life beyond the panel that asked for it: its outcome in the window's status bar
// or, once the window is closed, as a notification; an alert when offsets written to a
// watched group were overwritten by a consumer soon after; and a close that asks while a
// write runs instead of dropping it.
class WriteNoticeController : public QObject {
    Q_OBJECT
public:
    // `connectionName` names the window's connection in the notices.
    WriteNoticeController(QMainWindow* window, ResetController* resets,
                          WindowAlertsController* alerts, std::function<QString()> connectionName);

    // True when the window must not close now: the user kept it, or it hides and closes
    // itself once the write is done.
    bool closeMustWait();
    // Quit was chosen: the application quits once no window waits for its write.
    static void setQuitting() { s_quitting = true; }
    static bool isQuitting() { return s_quitting; }
    static bool anyWindowWaitsForItsWrite();

private:
    void showOutcome(const QString& summary);

    QMainWindow* m_window;
    ResetController* m_resets;
    WindowAlertsController* m_alerts;
    std::function<QString()> m_connectionName;
    bool m_closeWhenWriteEnds = false;
    static inline bool s_quitting = false;
};

} // namespace groupscope::ui
