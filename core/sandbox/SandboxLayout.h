#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace groupscope::sandbox {

// What kind of records a topic carries; decides keys and values of produced messages.
enum class SandboxMessageKind { Order, Payment, AuditEvent, Refund };

struct SandboxTopic {
    QString name;
    int partitions = 1;
    double messagesPerSecond = 0;
    SandboxMessageKind kind = SandboxMessageKind::Order;
};

// A consumer group of the sandbox and how its members behave.
struct SandboxGroup {
    QString name;
    QStringList topics;
    // 0: as fast as messages come. Otherwise the whole group's consumption rate.
    double maxMessagesPerSecond = 0;
    // Its members use the new consumer protocol (KIP-848) where the broker offers it.
    bool consumerProtocol = false;
    // Its members fail on records that are not JSON (see SandboxConsumerMember).
    bool failsOnMalformedRecords = false;
};

// The sandbox's topics and groups, each showing one thing a newcomer should see in
// Groupscope: a group that keeps up (billing), one falling behind (analytics), one that
// rebalances (shipping), one that rebalances with the new consumer protocol where the
// broker offers it (fulfilment: its partitions move one member at a time, no group-wide
// stop), one stuck on a malformed record until someone skips it (refunds) and one without
// members, ready for offset resets (archive).
struct SandboxLayout {
    SandboxTopic orders;
    SandboxTopic payments;
    SandboxTopic audit;
    SandboxTopic refunds;
    SandboxGroup billing;
    SandboxGroup analytics;
    SandboxGroup shipping;
    SandboxGroup fulfilment;
    SandboxGroup refundsGroup;
    SandboxGroup archive; // never has members; its offsets are committed once, at start

    QList<SandboxTopic> topics() const { return {orders, payments, audit, refunds}; }
    QStringList topicNames() const {
        return {orders.name, payments.name, audit.name, refunds.name};
    }
    QStringList groupNames() const {
        return {billing.name,    analytics.name,    shipping.name,
                fulfilment.name, refundsGroup.name, archive.name};
    }

    // Names carry `namePrefix`; every rate is multiplied by `rateScale`.
    static SandboxLayout standard(const QString& namePrefix = {}, double rateScale = 1.0);
};

} // namespace groupscope::sandbox
