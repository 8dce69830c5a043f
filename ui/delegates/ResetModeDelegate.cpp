#include "delegates/ResetModeDelegate.h"

#include "models/ResetModeText.h"

#include <QComboBox>

namespace groupscope::ui {

QWidget* ResetModeDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                         const QModelIndex&) const {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("resetModeEditor"));
    for (offsets::ResetMode mode : ResetModeText::all())
        combo->addItem(ResetModeText::label(mode), int(mode));
    connect(combo, &QComboBox::activated, this,
            [this, combo] { emit const_cast<ResetModeDelegate*>(this)->commitData(combo); });
    return combo;
}

void ResetModeDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    auto* combo = static_cast<QComboBox*>(editor);
    const int found = combo->findData(index.data(Qt::EditRole));
    if (found >= 0 && found != combo->currentIndex())
        combo->setCurrentIndex(found);
}

void ResetModeDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                     const QModelIndex& index) const {
    auto* combo = static_cast<QComboBox*>(editor);
    // Re-choosing the mode a row already has must not reset its value.
    if (combo->currentData().toInt() != index.data(Qt::EditRole).toInt())
        model->setData(index, combo->currentData(), Qt::EditRole);
}

} // namespace groupscope::ui
