#include "dialogs/DeleteGroupsConfirm.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

#include <algorithm>
#include <utility>

namespace groupscope::ui {

namespace {

std::optional<bool>& nextDeleteAnswer() {
    static std::optional<bool> answer;
    return answer;
}

QString& lastTextShown() {
    static QString text;
    return text;
}

int deletable(const QList<offsets::GroupDeletionPreview>& previews) {
    return int(std::count_if(previews.cbegin(), previews.cend(),
                             [](const auto& preview) { return preview.refusal.isEmpty(); }));
}

} // namespace

QString DeleteGroupsConfirm::text(const QString& cluster,
                                  const QList<offsets::GroupDeletionPreview>& previews) {
    QStringList lines;
    const int count = deletable(previews);
    if (count > 0) {
        lines.append(tr("Delete %n group(s) on %1?", nullptr, count).arg(cluster));
        for (const auto& preview : previews)
            if (preview.refusal.isEmpty())
                lines.append(
                    tr("  • %1 (%2, %n committed offset(s))", nullptr, int(preview.commits.size()))
                        .arg(preview.group.groupId, kafka::groupStateName(preview.group.state)));
    }
    for (const auto& preview : previews)
        if (!preview.refusal.isEmpty())
            lines.append(tr("Not deleted: %1").arg(preview.refusal));
    if (count > 0)
        lines.append(tr("Their committed offsets are recorded in the write journal: Undo in the "
                        "History tab commits them again."));
    return lines.join(u'\n');
}

bool DeleteGroupsConfirm::confirm(QWidget* parent, const QString& cluster,
                                  const QList<offsets::GroupDeletionPreview>& previews) {
    const QString shown = text(cluster, previews);
    lastTextShown() = shown;
    if (const std::optional<bool> answer = std::exchange(nextDeleteAnswer(), std::nullopt))
        return *answer && deletable(previews) > 0;
    if (deletable(previews) == 0) {
        QMessageBox::warning(parent, tr("Delete groups"), shown);
        return false;
    }
    QMessageBox box(QMessageBox::Warning, tr("Delete groups"), shown, QMessageBox::Cancel, parent);
    QPushButton* deleteButton = box.addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == deleteButton;
}

void DeleteGroupsConfirm::setNextAnswer(std::optional<bool> answer) {
    nextDeleteAnswer() = answer;
}

QString DeleteGroupsConfirm::lastText() {
    return lastTextShown();
}

} // namespace groupscope::ui
