#pragma once

#include <QStyledItemDelegate>

namespace groupscope::ui {

// The Value cell's editor: a line edit that checks the text against the row's mode as the
// user types (offset, date-time with zone, ISO-8601 duration, signed shift) with the same
// parser the planner uses. Bad input is refused with the reason, shown on the editor and
// reported through refused(); Enter on bad input keeps the editor open.
class ResetValueDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // `modeRole` is the model role that holds the row's offsets::ResetMode as int.
    explicit ResetValueDelegate(int modeRole, QObject* parent = nullptr);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;

    // Why `text` is not a valid value for the mode, or empty when it is.
    static QString problemWith(int mode, const QString& text);

signals:
    void refused(const QString& reason);

protected:
    bool eventFilter(QObject* object, QEvent* event) override;

private:
    int m_modeRole;
};

} // namespace groupscope::ui
