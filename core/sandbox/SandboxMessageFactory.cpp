#include "sandbox/SandboxMessageFactory.h"

#include <QDateTime>

#include <array>

namespace groupscope::sandbox {

namespace {

QByteArray nowIso() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8();
}

QByteArray padded(long long number, int width) {
    return QByteArray::number(number).rightJustified(width, '0');
}

} // namespace

SandboxMessageFactory::SandboxMessageFactory(SandboxMessageKind kind, uint32_t seed)
    : m_kind(kind)
    , m_random(seed) {}

int SandboxMessageFactory::uniform(int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(m_random);
}

SandboxMessage SandboxMessageFactory::next() {
    ++m_sequence;
    switch (m_kind) {
    case SandboxMessageKind::Order:
        return makeOrder();
    case SandboxMessageKind::Payment:
        return makePayment();
    case SandboxMessageKind::AuditEvent:
        return makeAuditEvent();
    case SandboxMessageKind::Refund:
        return makeRefund();
    }
    return makeOrder();
}

SandboxMessage SandboxMessageFactory::makeOrder() {
    const QByteArray orderId = "o-" + padded(qint64(m_sequence), 7);
    const int cents = uniform(499, 25000);
    const QByteArray value =
        "{\"order_id\":\"" + orderId + "\",\"customer\":\"c-" + padded(uniform(1, 500), 4) +
        "\",\"items\":" + QByteArray::number(uniform(1, 6)) +
        ",\"total\":" + QByteArray::number(cents / 100) + '.' + padded(cents % 100, 2) +
        ",\"currency\":\"EUR\",\"placed_at\":\"" + nowIso() + "\"}";
    return {orderId, value};
}

SandboxMessage SandboxMessageFactory::makePayment() {
    static constexpr std::array<const char*, 4> methods = {"card", "sepa", "paypal", "voucher"};
    const QByteArray paymentId = "p-" + padded(qint64(m_sequence), 7);
    const int cents = uniform(499, 25000);
    const QByteArray value = "{\"payment_id\":\"" + paymentId + "\",\"order_id\":\"o-" +
                             padded(uniform(1, int(m_sequence * 3 + 10)), 7) +
                             "\",\"amount\":" + QByteArray::number(cents / 100) + '.' +
                             padded(cents % 100, 2) + ",\"method\":\"" +
                             methods[size_t(uniform(0, int(methods.size()) - 1))] +
                             "\",\"status\":\"" + (uniform(0, 19) == 0 ? "declined" : "captured") +
                             "\",\"at\":\"" + nowIso() + "\"}";
    return {paymentId, value};
}

SandboxMessage SandboxMessageFactory::makeAuditEvent() {
    static constexpr std::array<const char*, 6> actions = {
        "login", "logout", "view_order", "update_address", "export_report", "change_password"};
    // Keyed by user, so one user's events stay in order on one partition.
    const QByteArray user = "u-" + padded(uniform(1, 2000), 5);
    const QByteArray value =
        "{\"event_id\":" + QByteArray::number(qint64(m_sequence)) + ",\"user\":\"" + user +
        "\",\"action\":\"" + actions[size_t(uniform(0, int(actions.size()) - 1))] +
        "\",\"ip\":\"10.0." + QByteArray::number(uniform(0, 255)) + '.' +
        QByteArray::number(uniform(1, 254)) + "\",\"at\":\"" + nowIso() + "\"}";
    return {user, value};
}

SandboxMessage SandboxMessageFactory::makeRefund() {
    const QByteArray refundId = "r-" + padded(qint64(m_sequence), 7);
    const int cents = uniform(199, 9999);
    QByteArray value = "{\"refund_id\":\"" + refundId + "\",\"payment_id\":\"p-" +
                       padded(uniform(1, int(m_sequence * 2 + 10)), 7) +
                       "\",\"amount\":" + QByteArray::number(cents / 100) + '.' +
                       padded(cents % 100, 2) + ",\"at\":\"" + nowIso() + "\"}";
    // One record cut short, as a producer that crashed mid-write or a buggy serializer
    // leaves it: the poison record the refunds group gets stuck on.
    if (m_sequence == malformedRefundSequence)
        value.truncate(value.indexOf(",\"amount\""));
    return {refundId, value};
}

} // namespace groupscope::sandbox
