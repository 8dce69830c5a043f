#pragma once

#include "offsets/ResetPlan.h"

#include <QDialog>

#include <optional>

namespace groupscope::ui {

// The last look before offsets are written: every partition that changes with its offset
// before and after and the delta, and the totals of messages replayed and skipped.
class ApplyConfirmDialog : public QDialog {
    Q_OBJECT
public:
    // `warning`, when given, stands first in the dialog: why this is a second question (the
    // group moved since the preview, a consumer still commits, an undo's conflicts).
    ApplyConfirmDialog(const offsets::ResetPlan& plan, const QString& action,
                       const QList<kafka::TopicPartition>& deletions = {},
                       const QString& warning = {}, QWidget* parent = nullptr);

    // Shows the dialog modally; true when the user chose to apply.
    static bool confirm(QWidget* parent, const offsets::ResetPlan& plan, const QString& action,
                        const QList<kafka::TopicPartition>& deletions = {},
                        const QString& warning = {});
    // Test hook: the next confirm() answers this at once without showing anything; the
    // warning and summary it would have shown are kept in lastSummary() (empty until then:
    // some confirmations come after a look at the cluster).
    static void setNextAnswer(std::optional<bool> answer);
    // The same for the next few confirmations (a write that is asked about a second time).
    static void setNextAnswers(const QList<bool>& answers);
    static QString lastSummary();
    // Every summary asked since the last setNextAnswer(s), oldest first.
    static QStringList summariesAsked();

    // "Replays 12 messages, skips 0 messages in 3 partitions of group g."
    static QString summary(const offsets::ResetPlan& plan, int deletions);
};

} // namespace groupscope::ui
