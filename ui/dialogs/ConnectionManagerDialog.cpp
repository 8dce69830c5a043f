#include "dialogs/ConnectionManagerDialog.h"

#include "dialogs/FileChooser.h"

#include "dialogs/TextPrompt.h"
#include "kafka/TransportSafety.h"
#include "monitor/AdminTaskRunner.h"
#include "settings/ConnectionStore.h"
#include "settings/SecretStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace groupscope::ui {

namespace {

struct NextAnswer {
    bool armed = false;
    std::optional<SavedConnection> answer;
};

NextAnswer& nextConnectionAnswer() {
    static NextAnswer instance;
    return instance;
}

} // namespace

namespace {

// A path field with a "Browse…" button beside it that picks a file into the field.
QWidget* withBrowseButton(QLineEdit* field, const QString& caption, const QString& filter) {
    auto* row = new QWidget(field->parentWidget());
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    field->setParent(row);
    layout->addWidget(field, 1);
    auto* browse = new QToolButton(row);
    browse->setObjectName(field->objectName() + QStringLiteral("Browse"));
    browse->setText(QCoreApplication::translate("ConnectionManagerDialog", "Browse…"));
    browse->setToolTip(caption);
    layout->addWidget(browse);
    QObject::connect(browse, &QToolButton::clicked, row, [field, caption, filter] {
        const QString chosen = FileChooser::openFile(field->window(), caption, filter);
        if (!chosen.isEmpty())
            field->setText(chosen);
    });
    return row;
}

// What the keychain holds for `key` (what this session knows, first): read before asking, so
// that a profile opened by name (groupscope --profile NAME) finds its secrets as the dialog
// does. The read is a D-Bus call to the secret service; a nested event loop keeps the GUI
// responsive meanwhile, and a keychain that has not answered in 10 s counts as holding
// nothing (the user is asked).
std::optional<QString> storedSecret(SecretStore& store, const QString& key) {
    QEventLoop loop;
    std::optional<QString> secret;
    bool answered = false;
    store.read(key, &loop, [&](std::optional<QString> read) {
        secret = std::move(read);
        answered = true;
        loop.quit();
    });
    if (!answered) {
        QTimer::singleShot(std::chrono::seconds(10), &loop, &QEventLoop::quit);
        loop.exec();
    }
    return secret;
}

// The square of colour beside a profile colour's name.
QIcon colourSwatch(const QString& colour) {
    QPixmap swatch(16, 16);
    swatch.fill(QColor(colour));
    return QIcon(swatch);
}

} // namespace

ConnectionManagerDialog::ConnectionManagerDialog(QWidget* parent)
    : QDialog(parent)
    , m_list(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_servers(new QLineEdit(this))
    , m_protocol(new QComboBox(this))
    , m_mechanism(new QComboBox(this))
    , m_username(new QLineEdit(this))
    , m_password(new QLineEdit(this))
    , m_caPath(new QLineEdit(this))
    , m_certPath(new QLineEdit(this))
    , m_keyPath(new QLineEdit(this))
    , m_keyPassword(new QLineEdit(this))
    , m_verifyTls(new QCheckBox(tr("&Verify the broker's certificate and host name"), this))
    , m_verifyWarning(new QLabel(this))
    , m_transportWarning(new QLabel(this))
    , m_extra(new QPlainTextEdit(this))
    , m_refreshSeconds(new QSpinBox(this))
    , m_readOnly(new QCheckBox(tr("Read-only: never change offsets through this profile"), this))
    , m_colour(new QComboBox(this))
    , m_production(new QCheckBox(tr("P&roduction: ask a second time before any write"), this))
    , m_secretNote(new QLabel(this))
    , m_testResult(new QLabel(this))
    , m_testButton(new QPushButton(tr("&Test connection"), this)) {
    setWindowTitle(tr("Connections"));
    setObjectName(QStringLiteral("connectionManager"));
    buildForm();
    loadProfiles();
    resize(780, 560);
}

ConnectionManagerDialog::~ConnectionManagerDialog() = default;

void ConnectionManagerDialog::configureFields() {
    m_name->setObjectName(QStringLiteral("profileName"));
    m_servers->setObjectName(QStringLiteral("bootstrapServersEdit"));
    m_servers->setPlaceholderText(QStringLiteral("broker1:9092,broker2:9092"));
    m_protocol->setObjectName(QStringLiteral("securityProtocol"));
    m_protocol->addItems({QStringLiteral("PLAINTEXT"), QStringLiteral("SSL"),
                          QStringLiteral("SASL_PLAINTEXT"), QStringLiteral("SASL_SSL")});
    m_mechanism->addItems({QStringLiteral("PLAIN"), QStringLiteral("SCRAM-SHA-256"),
                           QStringLiteral("SCRAM-SHA-512")});
    m_mechanism->setObjectName(QStringLiteral("saslMechanism"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setObjectName(QStringLiteral("saslPassword"));
    m_keyPassword->setEchoMode(QLineEdit::Password);
    m_verifyTls->setObjectName(QStringLiteral("tlsVerificationBox"));
    m_verifyTls->setChecked(true);
    m_verifyWarning->setObjectName(QStringLiteral("tlsVerificationWarning"));
    m_verifyWarning->setWordWrap(true);
    m_verifyWarning->setText(
        tr("⚠ Without verification anyone on the network path can pose as the broker and "
           "see the password and data sent to it. Use this only for a test cluster."));
    m_verifyWarning->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
    m_transportWarning->setObjectName(QStringLiteral("transportWarning"));
    m_transportWarning->setWordWrap(true);
    m_transportWarning->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
    m_extra->setPlaceholderText(QStringLiteral("client.id=groupscope\nsocket.timeout.ms=10000"));
    m_extra->setMaximumHeight(80);
    m_extra->setTabChangesFocus(true);
    m_refreshSeconds->setRange(1, 3600);
    m_refreshSeconds->setSuffix(tr(" s"));
    m_readOnly->setObjectName(QStringLiteral("readOnlyBox"));
    m_production->setObjectName(QStringLiteral("productionBox"));
    m_colour->setObjectName(QStringLiteral("profileColour"));
    // A few colours that stay apart from each other and from the window's own, named so
    // that the choice does not rest on colour vision alone.
    m_colour->addItem(tr("None"), QString());
    const std::pair<const char*, QString> colours[] = {
        {QT_TR_NOOP("Red"), QStringLiteral("#d32f2f")},
        {QT_TR_NOOP("Orange"), QStringLiteral("#ef6c00")},
        {QT_TR_NOOP("Yellow"), QStringLiteral("#f9a825")},
        {QT_TR_NOOP("Green"), QStringLiteral("#2e7d32")},
        {QT_TR_NOOP("Teal"), QStringLiteral("#00897b")},
        {QT_TR_NOOP("Blue"), QStringLiteral("#1565c0")},
        {QT_TR_NOOP("Purple"), QStringLiteral("#6a1b9a")},
        {QT_TR_NOOP("Grey"), QStringLiteral("#616161")}};
    for (const auto& [name, colour] : colours)
        m_colour->addItem(colourSwatch(colour), tr(name), colour);

    m_caPath->setObjectName(QStringLiteral("caPath"));
    m_certPath->setObjectName(QStringLiteral("certificatePath"));
    m_keyPath->setObjectName(QStringLiteral("keyPath"));
}

QLayout* ConnectionManagerDialog::buildProfileList() {
    m_list->setObjectName(QStringLiteral("profileList"));
    m_list->setMaximumWidth(200);
    auto* newButton = new QPushButton(tr("&New"), this);
    auto* deleteButton = new QPushButton(tr("&Delete"), this);
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(newButton);
    listButtons->addWidget(deleteButton);
    auto* left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    left->addLayout(listButtons);

    connect(newButton, &QPushButton::clicked, this, &ConnectionManagerDialog::newProfile);
    connect(deleteButton, &QPushButton::clicked, this, &ConnectionManagerDialog::deleteCurrent);
    return left;
}

QFormLayout* ConnectionManagerDialog::buildProfileForm() {
    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Bootstrap servers:"), m_servers);
    form->addRow(tr("&Security protocol:"), m_protocol);
    form->addRow(tr("SASL &mechanism:"), m_mechanism);
    form->addRow(tr("&Username:"), m_username);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(QString(), m_transportWarning);
    const QString pemFilter = tr("PEM files (*.pem *.crt *.cer *.key);;All files (*)");
    form->addRow(tr("CA file:"), withBrowseButton(m_caPath, tr("CA certificate"), pemFilter));
    form->addRow(tr("Certificate file:"),
                 withBrowseButton(m_certPath, tr("Client certificate"), pemFilter));
    form->addRow(tr("Key file:"), withBrowseButton(m_keyPath, tr("Client key"), pemFilter));
    form->addRow(tr("Key passphrase:"), m_keyPassword);
    form->addRow(QString(), m_verifyTls);
    form->addRow(QString(), m_verifyWarning);
    form->addRow(tr("E&xtra properties:"), m_extra);
    form->addRow(tr("&Refresh every:"), m_refreshSeconds);
    form->addRow(QString(), m_readOnly);
    form->addRow(tr("&Colour:"), m_colour);
    form->addRow(QString(), m_production);
    return form;
}

QLayout* ConnectionManagerDialog::buildDetailsColumn() {
    m_secretNote->setObjectName(QStringLiteral("secretStorageNote"));
    m_secretNote->setWordWrap(true);
    m_secretNote->setForegroundRole(QPalette::PlaceholderText);
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testButton->setObjectName(QStringLiteral("testConnectionButton"));
    m_testButton->setAutoDefault(false);

    auto* right = new QVBoxLayout;
    right->addLayout(buildProfileForm());
    right->addWidget(m_secretNote);
    auto* testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton);
    testRow->addWidget(m_testResult, 1);
    right->addLayout(testRow);
    right->addStretch(1);
    return right;
}

void ConnectionManagerDialog::buildForm() {
    configureFields();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* saveButton = buttons->addButton(tr("&Save"), QDialogButtonBox::ApplyRole);
    QPushButton* connectButton = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    connectButton->setDefault(true);

    auto* columns = new QHBoxLayout;
    columns->addLayout(buildProfileList());
    columns->addLayout(buildDetailsColumn(), 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &ConnectionManagerDialog::selectProfile);
    connect(saveButton, &QPushButton::clicked, this, &ConnectionManagerDialog::saveCurrent);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionManagerDialog::testConnection);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_servers->text().trimmed().isEmpty()) {
            showTestResult(tr("Enter the bootstrap servers first."), false);
            return;
        }
        saveCurrent();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_protocol, &QComboBox::currentTextChanged, this,
            &ConnectionManagerDialog::updateFieldStates);
    connect(m_verifyTls, &QCheckBox::toggled, this, &ConnectionManagerDialog::updateFieldStates);
    // The transport warning depends on the mechanism, the brokers and the extra properties.
    connect(m_mechanism, &QComboBox::currentTextChanged, this,
            &ConnectionManagerDialog::updateFieldStates);
    connect(m_servers, &QLineEdit::textChanged, this, &ConnectionManagerDialog::updateFieldStates);
    connect(m_extra, &QPlainTextEdit::textChanged, this,
            &ConnectionManagerDialog::updateFieldStates);
    connect(&SecretStore::instance(), &SecretStore::sessionOnlyChanged, this,
            &ConnectionManagerDialog::updateFieldStates);
    updateFieldStates();
}

void ConnectionManagerDialog::updateFieldStates() {
    const QString protocol = m_protocol->currentText();
    const bool sasl = protocol.startsWith(QStringLiteral("SASL"));
    const bool ssl = protocol.endsWith(QStringLiteral("SSL"));
    for (QWidget* field : {static_cast<QWidget*>(m_mechanism), static_cast<QWidget*>(m_username),
                           static_cast<QWidget*>(m_password)})
        field->setEnabled(sasl);
    for (QWidget* field : {static_cast<QWidget*>(m_caPath), static_cast<QWidget*>(m_certPath),
                           static_cast<QWidget*>(m_keyPath), static_cast<QWidget*>(m_keyPassword),
                           static_cast<QWidget*>(m_verifyTls)})
        field->setEnabled(ssl);
    for (QLineEdit* path : {m_caPath, m_certPath, m_keyPath})
        path->parentWidget()->setEnabled(ssl); // with its Browse button
    // setHidden, not setVisible: the dialog may not be shown yet (tests read isHidden()).
    m_verifyWarning->setHidden(!ssl || m_verifyTls->isChecked());
    const QString transport = kafka::cleartextCredentialsWarning(currentConnection().profile);
    m_transportWarning->setText(QStringLiteral("⚠ ") + transport + u'.');
    m_transportWarning->setHidden(transport.isEmpty());
    m_secretNote->setText(SecretStore::instance().storageDescription());
}

void ConnectionManagerDialog::loadProfiles() {
    m_connections = ConnectionStore::load();
    m_list->clear();
    for (const auto& connection : std::as_const(m_connections))
        m_list->addItem(connection.profile.name);
    const QString last = ConnectionStore::lastUsed();
    int row = 0;
    for (int i = 0; i < m_connections.size(); ++i)
        if (m_connections.at(i).profile.name == last)
            row = i;
    if (m_connections.isEmpty())
        newProfile();
    else
        m_list->setCurrentRow(row);
}

void ConnectionManagerDialog::newProfile() {
    SavedConnection fresh;
    fresh.profile.name = tr("New cluster");
    fresh.profile.bootstrapServers = QStringLiteral("localhost:9092");
    setCurrentConnection(fresh);
    m_list->clearSelection();
    m_name->setFocus();
    m_name->selectAll();
}

void ConnectionManagerDialog::selectProfile(int row) {
    if (row < 0 || row >= m_connections.size())
        return;
    setCurrentConnection(m_connections.at(row));
}

void ConnectionManagerDialog::setCurrentConnection(const SavedConnection& connection) {
    const kafka::ConnectionProfile& profile = connection.profile;
    m_name->setText(profile.name);
    m_servers->setText(profile.bootstrapServers);
    m_protocol->setCurrentText(profile.securityProtocol.isEmpty() ? QStringLiteral("PLAINTEXT")
                                                                  : profile.securityProtocol);
    m_mechanism->setCurrentText(profile.saslMechanism.isEmpty() ? QStringLiteral("PLAIN")
                                                                : profile.saslMechanism);
    m_username->setText(profile.saslUsername);
    m_caPath->setText(profile.sslCaLocation);
    m_certPath->setText(profile.sslCertificateLocation);
    m_keyPath->setText(profile.sslKeyLocation);
    QStringList extra;
    for (const auto& [key, value] : profile.extraProperties)
        extra.append(key + QLatin1Char('=') + value);
    m_extra->setPlainText(extra.join(QLatin1Char('\n')));
    m_refreshSeconds->setValue(
        int(std::max<long long>(1, connection.refreshInterval.count() / 1000)));
    m_readOnly->setChecked(connection.readOnly);
    m_production->setChecked(connection.production);
    // A colour saved by hand that is not in the list is kept, shown as itself.
    if (m_colour->findData(connection.colour) < 0)
        m_colour->addItem(colourSwatch(connection.colour), connection.colour, connection.colour);
    m_colour->setCurrentIndex(m_colour->findData(connection.colour));
    m_password->setText(profile.saslPassword);
    m_keyPassword->setText(profile.sslKeyPassword);
    m_verifyTls->setChecked(profile.tlsVerification);
    m_testResult->clear();
    // Secrets come from the store, asynchronously where it is the keychain.
    auto& store = SecretStore::instance();
    const QString name = profile.name;
    if (profile.saslPassword.isEmpty())
        store.read(ConnectionStore::secretKey(name, ConnectionStore::saslPasswordKey), this,
                   [this, name](std::optional<QString> secret) {
                       if (secret && m_name->text() == name && m_password->text().isEmpty())
                           m_password->setText(*secret);
                   });
    if (profile.sslKeyPassword.isEmpty())
        store.read(ConnectionStore::secretKey(name, ConnectionStore::keyPasswordKey), this,
                   [this, name](std::optional<QString> secret) {
                       if (secret && m_name->text() == name && m_keyPassword->text().isEmpty())
                           m_keyPassword->setText(*secret);
                   });
    m_pendingSecretProperties = connection.secretProperties;
    for (const QString& property : connection.secretProperties)
        store.read(ConnectionStore::propertySecretKey(name, property), this,
                   [this, name, property](std::optional<QString> secret) {
                       if (m_name->text() != name || !m_pendingSecretProperties.removeOne(property))
                           return;
                       if (secret)
                           m_extra->appendPlainText(property + QLatin1Char('=') + *secret);
                   });
    updateFieldStates();
}

SavedConnection ConnectionManagerDialog::currentConnection() const {
    SavedConnection connection;
    kafka::ConnectionProfile& profile = connection.profile;
    profile.name = m_name->text().trimmed();
    if (profile.name.isEmpty())
        profile.name = m_servers->text().trimmed();
    profile.bootstrapServers = m_servers->text().trimmed();
    profile.securityProtocol = m_protocol->currentText();
    const bool sasl = profile.securityProtocol.startsWith(QStringLiteral("SASL"));
    const bool ssl = profile.securityProtocol.endsWith(QStringLiteral("SSL"));
    if (sasl) {
        profile.saslMechanism = m_mechanism->currentText();
        profile.saslUsername = m_username->text();
        profile.saslPassword = m_password->text();
    }
    if (ssl) {
        profile.sslCaLocation = m_caPath->text().trimmed();
        profile.sslCertificateLocation = m_certPath->text().trimmed();
        profile.sslKeyLocation = m_keyPath->text().trimmed();
        profile.sslKeyPassword = m_keyPassword->text();
        profile.tlsVerification = m_verifyTls->isChecked();
    }
    for (const QString& line : m_extra->toPlainText().split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        const qsizetype equals = trimmed.indexOf(QLatin1Char('='));
        if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')) || equals <= 0)
            continue;
        profile.extraProperties.append(
            {trimmed.left(equals).trimmed(), trimmed.mid(equals + 1).trimmed()});
    }
    // Secret properties the keychain has not answered for yet are still the profile's.
    connection.secretProperties = m_pendingSecretProperties;
    connection.refreshInterval = std::chrono::seconds(m_refreshSeconds->value());
    connection.readOnly = m_readOnly->isChecked();
    connection.production = m_production->isChecked();
    connection.colour = m_colour->currentData().toString();
    return connection;
}

void ConnectionManagerDialog::saveCurrent() {
    const SavedConnection stored = ConnectionStore::keepSecrets(currentConnection());
    const QString name = stored.profile.name;
    int row = -1;
    for (int i = 0; i < m_connections.size(); ++i)
        if (m_connections.at(i).profile.name == name)
            row = i;
    if (row < 0) {
        m_connections.append(stored);
        m_list->addItem(name);
        row = int(m_connections.size() - 1);
    } else {
        m_connections[row] = stored;
    }
    ConnectionStore::save(m_connections);
    ConnectionStore::setLastUsed(name);
    const QSignalBlocker blocker(m_list);
    m_list->setCurrentRow(row);
}

void ConnectionManagerDialog::deleteCurrent() {
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_connections.size())
        return;
    ConnectionStore::forgetSecrets(m_connections.at(row));
    m_connections.removeAt(row);
    delete m_list->takeItem(row);
    ConnectionStore::save(m_connections);
    if (m_connections.isEmpty())
        newProfile();
}

void ConnectionManagerDialog::showTestResult(const QString& text, bool ok) {
    m_testResult->setText((ok ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) + text);
}

QString ConnectionManagerDialog::testResultText() const {
    return m_testResult->text();
}

void ConnectionManagerDialog::testConnection() {
    const SavedConnection connection = currentConnection();
    if (connection.profile.bootstrapServers.isEmpty()) {
        showTestResult(tr("Enter the bootstrap servers first."), false);
        return;
    }
    delete m_tester;
    m_tester =
        new monitor::AdminTaskRunner(connection.profile, std::chrono::milliseconds(8000), this);
    m_testButton->setEnabled(false);
    m_testResult->setText(tr("Testing %1…").arg(connection.profile.bootstrapServers));
    const bool unverified = !connection.profile.verificationWarning().isEmpty();
    m_tester->post(this, [this, unverified](kafka::AdminClient* admin,
                                            const kafka::KafkaError& creationError,
                                            const monitor::AdminTaskRunner::CancelToken&) {
        QElapsedTimer timer;
        timer.start();
        if (!admin)
            return monitor::AdminTaskRunner::Continuation([this, creationError] {
                m_testButton->setEnabled(true);
                showTestResult(tr("Cannot connect: %1").arg(creationError.message), false);
            });
        auto groups = admin->listGroups();
        auto partitions = groups ? admin->topicPartitions()
                                 : kafka::Result<QList<kafka::TopicPartition>>(groups.error());
        const qint64 elapsed = timer.elapsed();
        return monitor::AdminTaskRunner::Continuation([this, groups, partitions, elapsed,
                                                       unverified] {
            m_testButton->setEnabled(true);
            if (!groups)
                showTestResult(tr("Failed: %1").arg(groups.error().message), false);
            else if (!partitions)
                showTestResult(
                    tr("Listed groups but not topics: %1").arg(partitions.error().message), false);
            else {
                QSet<QString> topics;
                for (const auto& tp : partitions.value())
                    topics.insert(tp.topic);
                // A success without verification proves little about whom we reached.
                showTestResult(
                    tr("Connected in %1 ms: %2 group(s), %3 topic(s).%4")
                        .arg(elapsed)
                        .arg(groups.value().size())
                        .arg(topics.size())
                        .arg(unverified ? tr(" The broker was not verified.") : QString()),
                    true);
            }
        });
    });
}

bool ConnectionManagerDialog::fillSecrets(QWidget* parent, SavedConnection& connection) {
    auto& store = SecretStore::instance();
    kafka::ConnectionProfile& profile = connection.profile;
    auto fill = [&](QString& field, const QString& which, const QString& label) {
        if (!field.isEmpty())
            return true;
        const QString key = ConnectionStore::secretKey(profile.name, which);
        if (auto known = storedSecret(store, key)) {
            field = *known;
            return true;
        }
        const auto typed = TextPrompt::ask(parent, tr("Password for %1").arg(profile.name), label,
                                           QLineEdit::Password);
        if (!typed)
            return false;
        field = *typed;
        store.write(key, field);
        return true;
    };
    if (connection.needsSaslPassword() &&
        !fill(profile.saslPassword, ConnectionStore::saslPasswordKey,
              tr("SASL password of %1:").arg(profile.saslUsername)))
        return false;
    if (connection.needsKeyPassword() &&
        !fill(profile.sslKeyPassword, ConnectionStore::keyPasswordKey, tr("Key passphrase:")))
        return false;
    for (const QString& property : std::as_const(connection.secretProperties)) {
        const bool present =
            std::any_of(profile.extraProperties.cbegin(), profile.extraProperties.cend(),
                        [&](const auto& extra) { return extra.first == property; });
        if (present)
            continue;
        QString value;
        if (!fill(value, QStringLiteral("property/") + property, tr("Value of %1:").arg(property)))
            return false;
        profile.extraProperties.append({property, value});
    }
    return true;
}

std::optional<SavedConnection> ConnectionManagerDialog::choose(QWidget* parent) {
    if (nextConnectionAnswer().armed) {
        nextConnectionAnswer().armed = false;
        return std::exchange(nextConnectionAnswer().answer, std::nullopt);
    }
    ConnectionManagerDialog dialog(parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    SavedConnection chosen = dialog.currentConnection();
    chosen.isSavedProfile = true; // Connect saves the form first
    if (!fillSecrets(parent, chosen))
        return std::nullopt;
    return chosen;
}

void ConnectionManagerDialog::setNextAnswer(std::optional<SavedConnection> answer) {
    nextConnectionAnswer() = {true, std::move(answer)};
}

} // namespace groupscope::ui
