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
    explicit SandboxMessageFactory(SandboxMessageKind kind, uint32_t seed = 1);

    SandboxMessage next();

private:
    SandboxMessage makeOrder();
    SandboxMessage makePayment();
    SandboxMessage makeAuditEvent();
    int uniform(int low, int high);

    SandboxMessageKind m_kind;
    uint64_t m_sequence = 0;
    std::minstd_rand m_random;
};

} // namespace groupscope::sandbox
