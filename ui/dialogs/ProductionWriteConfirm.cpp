#include "dialogs/ProductionWriteConfirm.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <utility>

namespace groupscope::ui {

namespace {

struct Asked {
    std::optional<bool> nextAnswer;
    QString lastText;
    int count = 0;
};

Asked& asked() {
    static Asked instance;
    return instance;
}

} // namespace

QString ProductionWriteConfirm::text(const QString& profileName, const QString& what) {
    return tr("“%1” is a production cluster.\n\n%2\n\nType the profile's name to go ahead.")
        .arg(profileName, what);
}

bool ProductionWriteConfirm::confirm(QWidget* parent, const QString& profileName,
                                     const QString& what) {
    const QString shown = text(profileName, what);
    asked().lastText = shown;
    ++asked().count;
    if (const std::optional<bool> answer = std::exchange(asked().nextAnswer, std::nullopt))
        return *answer;

    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("productionWriteConfirm"));
    dialog.setWindowTitle(tr("Write to production?"));
    dialog.setMinimumWidth(460);
    auto* label = new QLabel(shown, &dialog);
    label->setWordWrap(true);
    auto* name = new QLineEdit(&dialog);
    name->setPlaceholderText(profileName);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, &dialog);
    QPushButton* goAhead =
        buttons->addButton(tr("&Write to %1").arg(profileName), QDialogButtonBox::AcceptRole);
    goAhead->setEnabled(false);
    goAhead->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    QObject::connect(name, &QLineEdit::textChanged, goAhead,
                     [goAhead, profileName](const QString& typed) {
                         goAhead->setEnabled(typed.trimmed() == profileName);
                     });
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(label);
    layout->addWidget(name);
    layout->addWidget(buttons);
    name->setFocus();
    return dialog.exec() == QDialog::Accepted && name->text().trimmed() == profileName;
}

void ProductionWriteConfirm::setNextAnswer(std::optional<bool> answer) {
    asked().nextAnswer = answer;
}

QString ProductionWriteConfirm::lastText() {
    return asked().lastText;
}

int ProductionWriteConfirm::timesAsked() {
    return asked().count;
}

} // namespace groupscope::ui
