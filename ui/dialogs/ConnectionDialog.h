#pragma once

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLineEdit;

namespace groupscope::ui {

// Asks for the bootstrap servers of the cluster to inspect.
class ConnectionDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectionDialog(QWidget* parent = nullptr);

    QString bootstrapServers() const;
    void setBootstrapServers(const QString& servers);

    // Shows the dialog modally, prefilled with the last servers used; empty on Cancel.
    // Remembers an accepted answer for next time (no secrets: just host:port pairs).
    static std::optional<QString> askForBootstrapServers(QWidget* parent = nullptr);
    // Test hook: the next askForBootstrapServers() returns this at once without showing a
    // modal dialog (std::nullopt stands for Cancel).
    static void setNextAnswer(std::optional<QString> answer);

private:
    void updateOkButton();

    QLineEdit* m_serversEdit;
    QDialogButtonBox* m_buttons;
};

} // namespace groupscope::ui
