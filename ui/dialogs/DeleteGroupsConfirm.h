#pragma once

#include "offsets/GroupDeleter.h"

#include <QCoreApplication>
#include <QWidget>

#include <optional>

namespace groupscope::ui {

// The question before groups are deleted: which groups, on which cluster, with how many
// committed offsets each, which of them will be refused and why, and that undo brings
// their commits back. The default answer is Cancel.
class DeleteGroupsConfirm {
    Q_DECLARE_TR_FUNCTIONS(DeleteGroupsConfirm)
public:
    // True when the user chose to delete; asks nothing (and says why) when no group can be.
    static bool confirm(QWidget* parent, const QString& cluster,
                        const QList<offsets::GroupDeletionPreview>& previews);
    // Test hook: the next confirm() answers this at once without showing anything; the
    // text it would have shown is kept in lastText().
    static void setNextAnswer(std::optional<bool> answer);
    static QString lastText();

    static QString text(const QString& cluster,
                        const QList<offsets::GroupDeletionPreview>& previews);
};

} // namespace groupscope::ui
