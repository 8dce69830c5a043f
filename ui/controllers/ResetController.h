#pragma once

#include "monitor/AdminTaskRunner.h"
#include "offsets/ResetApplier.h"
#include "offsets/ResetPlanner.h"

#include <QObject>
#include <QPointer>

#include <functional>

namespace groupscope::ui {

// The GUI's driver of the offsets core, the same calls groupscope-cli makes
// (core/cli/ResetCommands.cpp): ResetPlanner to plan, ResetApplier with the AuditLog to
// apply. Every call runs on the AdminTaskRunner's worker thread; results come back to the
// GUI thread through the callbacks. Shared by the offsets table and the History tab, so
// "one apply at a time" and the read-only rule hold for both.
class ResetController : public QObject {
    Q_OBJECT
public:
    explicit ResetController(QObject* parent = nullptr);

    void setRunner(monitor::AdminTaskRunner* runner);
    monitor::AdminTaskRunner* runner() const { return m_runner; }
    // A read-only connection profile refuses every write, with this reason.
    void setReadOnly(bool readOnly, const QString& reason = {});
    bool isReadOnly() const { return m_readOnly; }
    QString readOnlyReason() const { return m_readOnlyReason; }
    bool isApplying() const { return m_applying; }

    using PlanCallback = std::function<void(const kafka::Result<offsets::ResetPlan>&)>;
    using ApplyCallback =
        std::function<void(const kafka::Result<QList<offsets::GroupApplyResult>>&)>;
    using PartitionsCallback =
        std::function<void(const kafka::Result<QList<kafka::TopicPartition>>&)>;

    void plan(QObject* context, const QList<offsets::RowRequest>& requests, PlanCallback done);
    // Refused at once (callback not called, false returned) when read-only or busy.
    bool apply(QObject* context, const offsets::ResetPlan& plan, offsets::ApplyOptions options,
               ApplyCallback done);
    // Abandons the apply in flight (also a wait for the group to become empty).
    void cancelApply();
    void topicPartitions(QObject* context, const QString& topic, PartitionsCallback done);

signals:
    void applyingChanged(bool applying);
    void readOnlyChanged(bool readOnly);
    // Offsets were written (fully or partly): views should refresh and history reload.
    void offsetsChanged(const QString& groupId);

private:
    QPointer<monitor::AdminTaskRunner> m_runner;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    bool m_applying = false;
    monitor::AdminTaskRunner::CancelToken m_applyCancel;
};

} // namespace groupscope::ui
