#include "dialogs/ApplyConfirmDialog.h"

#include "models/TableText.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace groupscope::ui {

namespace {

QList<bool>& nextAnswers() {
    static QList<bool> answers;
    return answers;
}

QStringList& askedSummaries() {
    static QStringList summaries;
    return summaries;
}

QList<offsets::PlanRow> changingRows(const offsets::ResetPlan& plan) {
    QList<offsets::PlanRow> rows;
    for (const auto& row : plan.rows)
        if (row.changes())
            rows.append(row);
    return rows;
}

} // namespace

QString ApplyConfirmDialog::summary(const offsets::ResetPlan& plan, int deletions) {
    const QList<offsets::PlanRow> rows = changingRows(plan);
    if (rows.isEmpty() && deletions > 0) // delete-offsets, or the undo of created commits
        return tr("%n committed offset(s) will be deleted.", nullptr, deletions);
    QString text = tr("%n partition(s) of group %1 change: ", nullptr, int(rows.size()))
                       .arg(plan.groups().join(QStringLiteral(", ")));
    text += tr("replays %1 message(s), skips %2 message(s).")
                .arg(plan.messagesReplayed())
                .arg(plan.messagesSkipped());
    if (deletions > 0)
        text +=
            QLatin1Char(' ') + tr("%n committed offset(s) will be deleted.", nullptr, deletions);
    return text;
}

ApplyConfirmDialog::ApplyConfirmDialog(const offsets::ResetPlan& plan, const QString& action,
                                       const QList<kafka::TopicPartition>& deletions,
                                       const QString& warning, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("applyConfirmDialog"));
    setWindowTitle(tr("Confirm: %1").arg(action));
    const QList<offsets::PlanRow> rows = changingRows(plan);

    auto* intro = new QLabel(summary(plan, int(deletions.size())), this);
    intro->setWordWrap(true);
    auto* table = new QTableWidget(int(rows.size() + deletions.size()), 5, this);
    table->setHorizontalHeaderLabels(
        {tr("Topic"), tr("Partition"), tr("Before"), tr("After"), tr("Delta")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto cell = [](const QString& text, bool number) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(number ? Qt::AlignRight | Qt::AlignVCenter
                                      : Qt::AlignLeft | Qt::AlignVCenter);
        return item;
    };
    int line = 0;
    for (const auto& row : rows) {
        table->setItem(line, 0, cell(row.topicPartition.topic, false));
        table->setItem(line, 1, cell(QString::number(row.topicPartition.partition), true));
        table->setItem(line, 2, cell(tableText::offset(row.committedOffset), true));
        table->setItem(line, 3, cell(tableText::offset(row.newOffset), true));
        table->setItem(line, 4, cell(tableText::signedNumber(row.delta()), true));
        ++line;
    }
    for (const auto& tp : deletions) {
        table->setItem(line, 0, cell(tp.topic, false));
        table->setItem(line, 1, cell(QString::number(tp.partition), true));
        table->setItem(line, 2, cell(QString(), true));
        table->setItem(line, 3, cell(tr("(delete commit)"), true));
        table->setItem(line, 4, cell(QString(), true));
        ++line;
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->resizeColumnsToContents();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);

    auto* note = new QLabel(tr("The change is recorded in the write journal before it is sent, "
                               "so it can be undone from the History tab."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* apply = buttons->addButton(action, QDialogButtonBox::AcceptRole);
    // Cancel is the default: Enter alone must not write offsets at 3 a.m.
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    apply->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    if (!warning.isEmpty()) {
        auto* warningLabel = new QLabel(warning, this);
        warningLabel->setObjectName(QStringLiteral("applyConfirmWarning"));
        warningLabel->setWordWrap(true);
        warningLabel->setStyleSheet(QStringLiteral("font-weight: bold;"));
        layout->addWidget(warningLabel);
    }
    layout->addWidget(intro);
    layout->addWidget(table, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(620, 420);
}

bool ApplyConfirmDialog::confirm(QWidget* parent, const offsets::ResetPlan& plan,
                                 const QString& action,
                                 const QList<kafka::TopicPartition>& deletions,
                                 const QString& warning) {
    askedSummaries().append((warning.isEmpty() ? QString() : warning + QLatin1Char('\n')) +
                            summary(plan, int(deletions.size())));
    if (!nextAnswers().isEmpty())
        return nextAnswers().takeFirst();
    ApplyConfirmDialog dialog(plan, action, deletions, warning, parent);
    return dialog.exec() == QDialog::Accepted;
}

void ApplyConfirmDialog::setNextAnswer(std::optional<bool> answer) {
    setNextAnswers(answer ? QList<bool>{*answer} : QList<bool>{});
}

void ApplyConfirmDialog::setNextAnswers(const QList<bool>& answers) {
    nextAnswers() = answers;
    askedSummaries().clear(); // so that a test can wait for the next question
}

QString ApplyConfirmDialog::lastSummary() {
    return askedSummaries().isEmpty() ? QString() : askedSummaries().last();
}

QStringList ApplyConfirmDialog::summariesAsked() {
    return askedSummaries();
}

} // namespace groupscope::ui
