#include "delegates/ResetValueDelegate.h"

#include "models/ResetModeText.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QToolTip>

namespace groupscope::ui {

namespace {

const char* const modeProperty = "resetMode";

} // namespace

ResetValueDelegate::ResetValueDelegate(int modeRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_modeRole(modeRole) {}

QString ResetValueDelegate::problemWith(int mode, const QString& text) {
    const auto parsed = offsets::ResetSpec::parse(offsets::ResetMode(mode), text.trimmed());
    return parsed ? QString() : parsed.error().message;
}

QWidget* ResetValueDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                          const QModelIndex& index) const {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QStringLiteral("resetValueEditor"));
    const int mode = index.data(m_modeRole).toInt();
    edit->setProperty(modeProperty, mode);
    edit->setPlaceholderText(ResetModeText::hint(offsets::ResetMode(mode)));
    edit->setToolTip(ResetModeText::hint(offsets::ResetMode(mode)));
    // Says what is wrong while typing, without interrupting: the tooltip carries the
    // reason and the frame goes to the palette's link colour (visible in dark themes too).
    connect(edit, &QLineEdit::textChanged, edit, [edit, mode](const QString& text) {
        const QString problem = problemWith(mode, text);
        edit->setToolTip(problem.isEmpty() ? ResetModeText::hint(offsets::ResetMode(mode))
                                           : problem);
        QPalette palette = edit->parentWidget() ? edit->parentWidget()->palette() : QPalette();
        if (!problem.isEmpty())
            palette.setColor(QPalette::Text, palette.color(QPalette::Link));
        edit->setPalette(palette);
    });
    return edit;
}

void ResetValueDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    auto* edit = static_cast<QLineEdit*>(editor);
    // A refresh must never replace what the user is typing: only fill an untouched editor.
    if (!edit->isModified())
        edit->setText(index.data(Qt::EditRole).toString());
}

void ResetValueDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                      const QModelIndex& index) const {
    auto* edit = static_cast<QLineEdit*>(editor);
    const QString problem = problemWith(index.data(m_modeRole).toInt(), edit->text());
    if (!problem.isEmpty()) {
        emit const_cast<ResetValueDelegate*>(this)->refused(
            tr("Value not changed: %1").arg(problem));
        return;
    }
    model->setData(index, edit->text().trimmed(), Qt::EditRole);
}

bool ResetValueDelegate::eventFilter(QObject* object, QEvent* event) {
    auto* edit = qobject_cast<QLineEdit*>(object);
    if (edit && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            const QString problem = problemWith(edit->property(modeProperty).toInt(), edit->text());
            if (!problem.isEmpty()) {
                QToolTip::showText(edit->mapToGlobal(QPoint(0, edit->height())), problem, edit);
                emit refused(problem);
                return true; // keep the editor open on the bad text
            }
        }
    }
    return QStyledItemDelegate::eventFilter(object, event);
}

} // namespace groupscope::ui
