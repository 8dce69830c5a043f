#pragma once

#include <QStyledItemDelegate>

namespace groupscope::ui {

// The Mode cell's editor: a combo of the reset modes. The choice is committed as soon as
// it is made, so the preview follows without an extra Enter.
class ResetModeDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;
};

} // namespace groupscope::ui
