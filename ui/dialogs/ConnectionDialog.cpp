#include "dialogs/ConnectionDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace groupscope::ui {

namespace {

const QString lastServersKey = QStringLiteral("connection/lastBootstrapServers");

struct NextAnswer {
    bool armed = false;
    std::optional<QString> answer;
};

NextAnswer& nextAnswer() {
    static NextAnswer instance;
    return instance;
}

} // namespace

ConnectionDialog::ConnectionDialog(QWidget* parent)
    : QDialog(parent)
    , m_serversEdit(new QLineEdit(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Connect to Kafka"));
    m_serversEdit->setObjectName(QStringLiteral("bootstrapServersEdit"));
    m_serversEdit->setPlaceholderText(QStringLiteral("broker1:9092,broker2:9092"));
    m_serversEdit->setMinimumWidth(320);

    auto* hint = new QLabel(
        tr("Groupscope only reads group metadata and offsets; it never joins a group."), this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto* form = new QFormLayout;
    form->addRow(tr("&Bootstrap servers:"), m_serversEdit);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_serversEdit, &QLineEdit::textChanged, this, &ConnectionDialog::updateOkButton);
    updateOkButton();
}

QString ConnectionDialog::bootstrapServers() const {
    return m_serversEdit->text().trimmed();
}

void ConnectionDialog::setBootstrapServers(const QString& servers) {
    m_serversEdit->setText(servers);
}

void ConnectionDialog::updateOkButton() {
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!bootstrapServers().isEmpty());
}

std::optional<QString> ConnectionDialog::askForBootstrapServers(QWidget* parent) {
    if (nextAnswer().armed) {
        nextAnswer().armed = false;
        return std::exchange(nextAnswer().answer, std::nullopt);
    }
    QSettings settings;
    ConnectionDialog dialog(parent);
    dialog.setBootstrapServers(settings.value(lastServersKey).toString());
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    settings.setValue(lastServersKey, dialog.bootstrapServers());
    return dialog.bootstrapServers();
}

void ConnectionDialog::setNextAnswer(std::optional<QString> answer) {
    nextAnswer() = {true, std::move(answer)};
}

} // namespace groupscope::ui
