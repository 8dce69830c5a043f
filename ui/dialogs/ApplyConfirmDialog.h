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
    ApplyConfirmDialog(const offsets::ResetPlan& plan, const QString& action,
                       const QList<kafka::TopicPartition>& deletions = {},
                       QWidget* parent = nullptr);

    // Shows the dialog modally; true when the user chose to apply.
    static bool confirm(QWidget* parent, const offsets::ResetPlan& plan, const QString& action,
                        const QList<kafka::TopicPartition>& deletions = {});
    // Test hook: the next confirm() answers this at once without showing anything; the
    // summary it would have shown is kept in lastSummary().
    static void setNextAnswer(std::optional<bool> answer);
    static QString lastSummary();

    // "Replays 12 messages, skips 0 messages in 3 partitions of group g."
    static QString summary(const offsets::ResetPlan& plan, int deletions);
};

} // namespace groupscope::ui
