#pragma once

#include <QLineEdit>
#include <QString>
#include <QWidget>

#include <optional>

namespace groupscope::ui {

// QInputDialog::getText with a test hook: setNextAnswer() answers the next ask() without
// showing a modal dialog (std::nullopt stands for Cancel).
class TextPrompt {
public:
    static std::optional<QString> ask(QWidget* parent, const QString& title, const QString& label,
                                      QLineEdit::EchoMode echo = QLineEdit::Normal);
    static void setNextAnswer(std::optional<QString> answer);
};

} // namespace groupscope::ui
