#include "dialogs/TextPrompt.h"

#include <QInputDialog>

namespace groupscope::ui {

namespace {

struct NextAnswer {
    bool armed = false;
    std::optional<QString> answer;
};

NextAnswer& nextAnswer() {
    static NextAnswer instance;
    return instance;
}

} // namespace

std::optional<QString> TextPrompt::ask(QWidget* parent, const QString& title, const QString& label,
                                       QLineEdit::EchoMode echo) {
    if (nextAnswer().armed) {
        nextAnswer().armed = false;
        return std::exchange(nextAnswer().answer, std::nullopt);
    }
    bool ok = false;
    const QString text = QInputDialog::getText(parent, title, label, echo, QString(), &ok);
    if (!ok)
        return std::nullopt;
    return text;
}

void TextPrompt::setNextAnswer(std::optional<QString> answer) {
    nextAnswer() = {true, std::move(answer)};
}

} // namespace groupscope::ui
