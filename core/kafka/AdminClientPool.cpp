#include "kafka/AdminClientPool.h"

namespace groupscope::kafka {

std::vector<AdminClient*> AdminClientPool::clientsLike(const AdminClient& primary, int count) {
    // A client made for another cluster (the primary was replaced by one with a new
    // profile) is of no use: start again.
    if (!m_clients.empty() &&
        m_clients.front()->profile().toProperties() != primary.profile().toProperties())
        m_clients.clear();
    while (int(m_clients.size()) < count) {
        auto created = AdminClient::create(primary.profile(), primary.timeout());
        if (!created)
            break;
        m_clients.push_back(std::move(created).value());
    }
    std::vector<AdminClient*> clients;
    for (std::unique_ptr<AdminClient>& client : m_clients) {
        if (int(clients.size()) == count)
            break;
        AdminClient::renewIfCoordinatorMoved(client);
        client->setTimeout(primary.timeout());
        client->setCancelFlag(primary.cancelFlag());
        clients.push_back(client.get());
    }
    return clients;
}

} // namespace groupscope::kafka
