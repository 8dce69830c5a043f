#include "sandbox/SandboxLayout.h"

namespace groupscope::sandbox {

namespace {

// Analytics reads at this fraction of what is produced to its topics, so its lag grows
// steadily, visibly and without bound while the sandbox runs.
constexpr double analyticsShareOfProduction = 0.5;

} // namespace

SandboxLayout SandboxLayout::standard(const QString& namePrefix, double rateScale) {
    auto name = [&](const char* base) { return namePrefix + QString::fromLatin1(base); };
    SandboxLayout layout;
    layout.orders = {name("orders"), 6, 40 * rateScale, SandboxMessageKind::Order};
    layout.payments = {name("payments"), 3, 15 * rateScale, SandboxMessageKind::Payment};
    layout.audit = {name("audit"), 12, 80 * rateScale, SandboxMessageKind::AuditEvent};
    layout.refunds = {name("refunds"), 1, 4 * rateScale, SandboxMessageKind::Refund};
    layout.billing = {name("billing"), {layout.orders.name, layout.payments.name}, 0};
    layout.analytics = {name("analytics"),
                        {layout.orders.name, layout.audit.name},
                        analyticsShareOfProduction *
                            (layout.orders.messagesPerSecond + layout.audit.messagesPerSecond)};
    layout.shipping = {name("shipping"), {layout.orders.name}, 0};
    layout.fulfilment = {name("fulfilment"), {layout.payments.name}, 0, true};
    layout.refundsGroup = {name("refunds"), {layout.refunds.name}, 0, false, true};
    layout.archive = {name("archive"), {layout.payments.name, layout.audit.name}, 0};
    return layout;
}

} // namespace groupscope::sandbox
