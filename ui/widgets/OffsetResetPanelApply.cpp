// OffsetResetPanel, its Apply: a look for consumers that still commit to a group without
// members, the confirmation (naming them), the write, a second question when the group
// moved since the preview, each partition's outcome in the results table, and what the
// controller's read-back 10 s later says: whether a consumer overwrote the write.

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/OffsetEditModel.h"
#include "models/TableText.h"
#include "widgets/OffsetResetPanel.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

namespace groupscope::ui {

void OffsetResetPanel::applyEdits() {
    catchUp();
    updateApplyState();
    if (!m_blockReason.isEmpty()) {
        showStatus(m_blockReason);
        return;
    }
    cancelRecordPreview(); // the apply should not queue behind it
    if (!m_group.description.members.isEmpty()) {
        confirmAndApply({});
        return;
    }
    // A group without members may still be committed to by a consumer that never joins:
    // looked for before the confirmation, which then names what was found.
    showStatus(
        tr("Checking whether a consumer still commits to group %1…").arg(m_model->groupId()));
    m_applyButton->setEnabled(false);
    m_controller->findRecentCommits(
        this, m_model->groupId(), [this](const kafka::Result<offsets::RecentCommitReport>& report) {
            updateApplyState();
            if (!report) {
                showStatus(tr("Could not check for consumers that still commit: %1")
                               .arg(report.error().message));
                return;
            }
            confirmAndApply(report.value());
        });
}

void OffsetResetPanel::confirmAndApply(const offsets::RecentCommitReport& recentCommits) {
    offsets::ResetSession session = m_session;
    session.dropUnchangedRows();
    const QString warning =
        recentCommits.isEmpty()
            ? QString()
            : recentCommits.refusalText(m_model->groupId(), QDateTime::currentMSecsSinceEpoch());
    if (!ApplyConfirmDialog::confirm(window(), session.plan(),
                                     warning.isEmpty() ? tr("Apply") : tr("Write anyway"), {},
                                     warning)) {
        showStatus(warning.isEmpty() ? QString() : tr("Nothing was changed."));
        return;
    }
    const std::chrono::milliseconds waitForEmpty =
        m_waitForEmpty->isChecked() ? std::chrono::minutes(m_waitMinutes->value())
                                    : std::chrono::minutes(0);
    const bool waits = !m_group.description.members.isEmpty() && m_waitForEmpty->isChecked();
    // The user confirmed with the warning in view: the write does not ask again.
    m_applyChoices = {};
    m_applyChoices.force = !warning.isEmpty();
    if (!m_controller->apply(
            this, session, waitForEmpty, [this](const auto& results) { showResults(results); },
            m_applyChoices)) {
        showStatus(m_controller->lastRefusal());
        return;
    }
    showStatus(
        waits ? tr("Waiting for group %1 to become empty, then applying…").arg(m_model->groupId())
              : tr("Applying…"));
}

namespace {

// The second question's reason when a group moved between the preview and the write.
QString driftWarning(const offsets::GroupApplyResult& result) {
    QStringList lines{OffsetResetPanel::tr("Group %1 moved since the preview, so nothing was "
                                           "written. Resolved again against its offsets now:")
                          .arg(result.groupId)};
    for (const offsets::RowDrift& drift : result.drift)
        lines.append(
            OffsetResetPanel::tr("%1: committed %2 then, %3 now; %4 gives %5 (the "
                                 "preview said %6)")
                .arg(drift.topicPartition.toString(), tableText::offset(drift.plannedAgainst),
                     tableText::offset(drift.committedNow), drift.spec,
                     tableText::offset(drift.newOffset), tableText::offset(drift.plannedOffset)));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

void OffsetResetPanel::showOverwritten(const QList<offsets::GroupApplyResult>& verified) {
    QStringList overwritten;
    for (const offsets::GroupApplyResult& group : verified)
        if (group.groupId == m_model->groupId())
            for (const offsets::JournalPartition& partition : group.overwrittenPartitions())
                overwritten.append(tr("%1 now %2")
                                       .arg(partition.topicPartition.toString(),
                                            tableText::offset(partition.overwrittenWith)));
    if (overwritten.isEmpty())
        return;
    showStatus(tr("Overwritten after the write (a consumer still commits to the group): %1. "
                  "The History tab marks the entry.")
                   .arg(overwritten.join(QStringLiteral(", "))));
}

bool OffsetResetPanel::askAgain(const QList<offsets::GroupApplyResult>& results) {
    for (const offsets::GroupApplyResult& result : results) {
        offsets::ResetSession session = m_session;
        session.dropUnchangedRows();
        // What the user confirmed before still holds; this question adds to it.
        QString warning;
        if (result.refusalKind == offsets::RefusalKind::Drift) {
            session.replacePlanRows(result.groupId, result.replannedRows);
            session.dropUnchangedRows();
            warning = driftWarning(result);
            m_applyChoices.replanOnDrift = true;
        } else if (result.refusalKind == offsets::RefusalKind::RecentCommits) {
            warning = result.refusal;
            m_applyChoices.force = true;
        } else {
            continue;
        }
        const QString action = result.refusalKind == offsets::RefusalKind::RecentCommits
                                   ? tr("Write anyway")
                                   : tr("Apply");
        if (!ApplyConfirmDialog::confirm(window(), session.plan(), action, {}, warning))
            return false;
        if (!m_controller->apply(
                this, session, std::chrono::milliseconds(0),
                [this](const auto& again) { showResults(again); }, m_applyChoices)) {
            showStatus(m_controller->lastRefusal());
            return true;
        }
        showStatus(tr("Applying…"));
        return true;
    }
    return false;
}

void OffsetResetPanel::showResults(const kafka::Result<QList<offsets::GroupApplyResult>>& results) {
    m_lastResults.clear();
    m_results->setRowCount(0);
    if (!results) {
        showStatus(tr("Apply failed: %1").arg(results.error().message));
        return;
    }
    if (askAgain(results.value()))
        return;
    QStringList problems;
    int applied = 0;
    for (const offsets::GroupApplyResult& group : results.value()) {
        if (!group.refusal.isEmpty())
            problems.append(tr("Nothing changed: %1").arg(group.refusal));
        if (!group.journalError.isEmpty())
            problems.append(
                tr("Applied; the outcome is not recorded yet: %1").arg(group.journalError));
        for (const offsets::JournalPartition& partition : group.partitions) {
            const int line = m_results->rowCount();
            m_results->insertRow(line);
            const QString result =
                !partition.error.isEmpty() ? tr("FAILED: %1").arg(partition.error)
                : partition.overwritten()
                    ? tr("OVERWRITTEN: now %1").arg(tableText::offset(partition.overwrittenWith))
                    : tr("ok");
            const QStringList cells{
                partition.topicPartition.topic, QString::number(partition.topicPartition.partition),
                tableText::offset(partition.before), tableText::offset(partition.after), result};
            for (int column = 0; column < cells.size(); ++column)
                m_results->setItem(line, column, new QTableWidgetItem(cells.at(column)));
            m_lastResults.append(QStringLiteral("%1 %2 -> %3 %4")
                                     .arg(partition.topicPartition.toString(),
                                          tableText::offset(partition.before),
                                          tableText::offset(partition.after), result));
            if (partition.error.isEmpty())
                ++applied;
        }
    }
    m_results->setVisible(m_results->rowCount() > 0);
    QString text = tr("Applied %n partition(s).", nullptr, applied);
    if (!problems.isEmpty())
        text =
            (applied > 0 ? text + QLatin1Char(' ') : QString()) + problems.join(QLatin1Char(' '));
    showStatus(text);
    if (applied > 0)
        m_model->clearEdits(); // the table now shows the new committed offsets, not the plan
}

} // namespace groupscope::ui
