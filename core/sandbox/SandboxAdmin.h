#pragma once

#include <librdkafka/rdkafka.h>

#include "kafka/AdminClient.h"
#include "sandbox/SandboxLayout.h"

#include <chrono>
#include <memory>

namespace groupscope::sandbox {

// The two Admin calls only the sandbox makes (creating its topics, committing offsets for
// its member-less group) on top of Groupscope's read-only AdminClient, whose connection and
// deadlines they share. Used by one thread at a time.
class SandboxAdmin {
public:
    using Milliseconds = std::chrono::milliseconds;

    static kafka::Result<std::unique_ptr<SandboxAdmin>>
    create(const kafka::ConnectionProfile& profile, Milliseconds timeout);
    ~SandboxAdmin();
    SandboxAdmin(const SandboxAdmin&) = delete;
    SandboxAdmin& operator=(const SandboxAdmin&) = delete;

    kafka::AdminClient& client() { return *m_client; }

    // Creates the topics with replication factor 1; a topic that already exists is fine.
    kafka::Status createTopics(const QList<SandboxTopic>& topics);

    // Whether the cluster's group coordinator speaks the new consumer protocol (KIP-848):
    // broker `brokerId`'s group.coordinator.rebalance.protocols lists "consumer" (Kafka 4
    // by default, Kafka 3.x not). False when the config is absent (older brokers).
    kafka::Result<bool> offersConsumerProtocol(int32_t brokerId);

private:
    explicit SandboxAdmin(std::unique_ptr<kafka::AdminClient> client);
    kafka::AdminOptionsHandle makeOptions(rd_kafka_admin_op_t operation) const;
    // The result event of the request just made, or its error (none in time, or the
    // event's own).
    kafka::Result<kafka::EventHandle> waitForResult(const QString& what);

    std::unique_ptr<kafka::AdminClient> m_client;
    kafka::QueueHandle m_queue; // results of this class's requests; before m_client goes
};

} // namespace groupscope::sandbox
