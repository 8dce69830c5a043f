#pragma once

#include <QCoreApplication>
#include <QWidget>

#include <optional>

namespace groupscope::ui {

// The second question before a write on a connection profile flagged "production": after
// the write's own confirmation, the user types the profile's name to go ahead. A habit of
// pressing Enter on the first dialog is then not enough to change a production cluster.
class ProductionWriteConfirm {
    Q_DECLARE_TR_FUNCTIONS(ProductionWriteConfirm)
public:
    // True when the user typed `profileName` and chose to go ahead with `what`
    // ("Apply: replays 12 messages in 3 partitions of group g.").
    static bool confirm(QWidget* parent, const QString& profileName, const QString& what);
    // Test hook: the next confirm() answers this at once without showing anything; the
    // text it would have shown is kept in lastText(), and every question is counted.
    static void setNextAnswer(std::optional<bool> answer);
    static QString lastText();
    static int timesAsked();

    static QString text(const QString& profileName, const QString& what);
};

} // namespace groupscope::ui
