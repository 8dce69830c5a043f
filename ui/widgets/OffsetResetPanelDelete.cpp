// OffsetResetPanel, its "Delete offsets…": the committed offsets of the selected rows are
// deleted (Kafka's --delete-offsets), after the same confirmation as an apply, recorded in
// the write journal, with each partition's outcome in the results table.

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/OffsetEditModel.h"
#include "widgets/OffsetResetPanel.h"

#include <QMap>

namespace groupscope::ui {

void OffsetResetPanel::deleteSelectedOffsets() {
    const QString groupId = m_model->groupId();
    // "topic:0,2" per topic, as groupscope-cli's delete-offsets takes them; rows the group
    // has no commit on have nothing to delete.
    QMap<QString, QStringList> partitionsByTopic;
    for (const int row : selectedRows())
        if (const OffsetEditRow& shown = m_model->rowAt(row); shown.committedOffset)
            partitionsByTopic[shown.topicPartition.topic].append(
                QString::number(shown.topicPartition.partition));
    if (groupId.isEmpty() || partitionsByTopic.isEmpty()) {
        showStatus(tr("Select the rows whose committed offsets to delete."));
        return;
    }
    if (m_controller->isReadOnly()) {
        showStatus(m_controller->readOnlyReason());
        return;
    }
    QStringList topics;
    for (auto it = partitionsByTopic.cbegin(); it != partitionsByTopic.cend(); ++it)
        topics.append(it.key() + u':' + it.value().join(u','));
    showStatus(tr("Reading the partitions to delete…"));
    m_controller->planDeletion(this, groupId, topics, [this, groupId](const auto& session) {
        if (!session) {
            showStatus(tr("Nothing was deleted: %1").arg(session.error().message));
            return;
        }
        const offsets::ResetSession planned = session.value();
        // As before any write to a group without members: a consumer that never joins it
        // may still commit, and would commit these offsets again.
        m_controller->findRecentCommits(
            this, groupId, [this, groupId, planned](const auto& report) {
                if (!report) {
                    showStatus(tr("Nothing was deleted: %1").arg(report.error().message));
                    return;
                }
                const QString warning =
                    report.value().isEmpty()
                        ? QString()
                        : report.value().refusalText(groupId, QDateTime::currentMSecsSinceEpoch());
                const QList<kafka::TopicPartition> deletions = planned.deletions().value(groupId);
                if (!ApplyConfirmDialog::confirm(window(), planned.plan(), tr("Delete offsets"),
                                                 deletions, warning)) {
                    showStatus(tr("Nothing was deleted."));
                    return;
                }
                if (!m_controller->apply(
                        this, planned, std::chrono::milliseconds(0),
                        [this](const auto& results) { showResults(results); },
                        ResetController::ApplyChoices{!warning.isEmpty(), false})) {
                    showStatus(m_controller->lastRefusal());
                    return;
                }
                showStatus(tr("Deleting %n committed offset(s)…", nullptr, int(deletions.size())));
            });
    });
}

} // namespace groupscope::ui
