#pragma once

#include "kafka/ConnectionProfile.h"
#include "sandbox/SandboxLayout.h"
#include "sandbox/SandboxOptions.h"
#include "sandbox/SandboxStatus.h"

#include <QStringList>

#include <chrono>
#include <memory>
#include <vector>

namespace groupscope::kafka {
class AdminClient;
}

namespace groupscope::sandbox {

class SandboxArchiveSeeder;
class SandboxConsumerGroup;
class SandboxProducer;

// Groupscope's embedded demo workload: creates the sandbox topics, produces to them at
// steady rates and runs the sandbox groups (see SandboxLayout), each on worker threads of
// its own, until stop(). Nothing here blocks the caller after start() returns.
class SandboxWorkload {
public:
    // Reaches the cluster and creates missing topics (bounded by options.setupTimeout; an
    // unreachable cluster is an error naming the bootstrap servers), then starts every
    // producer and group.
    static kafka::Result<std::unique_ptr<SandboxWorkload>>
    start(const kafka::ConnectionProfile& profile, const SandboxOptions& options);
    ~SandboxWorkload();
    SandboxWorkload(const SandboxWorkload&) = delete;
    SandboxWorkload& operator=(const SandboxWorkload&) = delete;

    // Stops everything in parallel: producers flush, members commit and leave their groups.
    // Returns within a few seconds even when the cluster has gone away. Idempotent.
    void stop();

    const SandboxLayout& layout() const { return m_layout; }
    // Things worth telling the user about the setup, e.g. a topic that already existed with
    // another partition count.
    const QStringList& notes() const { return m_notes; }
    // Why fulfilment uses the classic protocol on this cluster; empty when it does not.
    const QString& protocolNote() const { return m_protocolNote; }
    SandboxStatus status() const;

    // shipping's member counts, one step per rebalance interval.
    static QList<int> shippingMemberPattern() { return {1, 2, 3, 2}; }
    // fulfilment's: a second member joins and leaves, each time a partition handover.
    static QList<int> fulfilmentMemberPattern() { return {1, 2}; }

private:
    SandboxWorkload(const kafka::ConnectionProfile& profile, const SandboxOptions& options);
    kafka::Status prepareTopics();
    kafka::Status startWorkers();
    // Whether fulfilment can use the consumer protocol here; a note says when not.
    void chooseFulfilmentProtocol(kafka::AdminClient& admin,
                                  std::chrono::steady_clock::time_point deadline);

    kafka::ConnectionProfile m_profile;
    SandboxOptions m_options;
    SandboxLayout m_layout;
    QStringList m_notes;
    QString m_protocolNote;
    std::chrono::steady_clock::time_point m_startedAt;
    std::vector<std::unique_ptr<SandboxProducer>> m_producers;
    std::vector<std::unique_ptr<SandboxConsumerGroup>> m_groups;
    std::unique_ptr<SandboxArchiveSeeder> m_archiveSeeder;
};

} // namespace groupscope::sandbox
