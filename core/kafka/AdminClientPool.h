#pragma once

#include "kafka/AdminClient.h"

#include <memory>
#include <vector>

namespace groupscope::kafka {

// Extra AdminClients like a primary one (same profile, timeout and cancel flag), for
// spreading many small requests over several connections. A broker serves the requests
// of one connection one at a time, in order, but different connections in parallel; and
// librdkafka 2.0 sends one DescribeGroups and one OffsetFetch per group, each after its own
// coordinator lookup. So describing hundreds of groups over one connection is a long queue
// of round trips, and over four connections a quarter as long.
//
// The clients are created on first need and kept, so a poller that inspects every few
// seconds connects once. Each client is used by one thread at a time, as AdminClient asks.
class AdminClientPool {
public:
    // Up to `count` clients like `primary`, created now if need be. Fewer come back when
    // some cannot be created: the caller then spreads its work over those it has.
    std::vector<AdminClient*> clientsLike(const AdminClient& primary, int count);
    // How many clients the pool holds.
    int size() const { return int(m_clients.size()); }

private:
    std::vector<std::unique_ptr<AdminClient>> m_clients;
};

} // namespace groupscope::kafka
