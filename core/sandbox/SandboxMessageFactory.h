#pragma once

#include "sandbox/SandboxLayout.h"

#include <QByteArray>

#include <cstdint>
#include <random>

namespace groupscope::sandbox {

struct SandboxMessage {
    QByteArray key;
    QByteArray value;
};

// Small, plausible JSON records with keys, so a newcomer browsing the sandbox's topics sees
// something that looks like a business, and keyed partitioning spreads them over partitions.
class SandboxMessageFactory {
public:
    // The refund record of each run that is not valid JSON (see makeRefund).
    static constexpr uint64_t malformedRefundSequence = 40;

    explicit SandboxMessageFactory(SandboxMessageKind kind, uint32_t seed = 1);

    SandboxMessage next();

private:
    SandboxMessage makeOrder();
    SandboxMessage makePayment();
    SandboxMessage makeAuditEvent();
    SandboxMessage makeRefund();
    int uniform(int low, int high);

    SandboxMessageKind m_kind;
    uint64_t m_sequence = 0;
    std::minstd_rand m_random;
};

} // namespace groupscope::sandbox
