#include "sandbox/SandboxWorkload.h"

#include "kafka/AdminClient.h"
#include "sandbox/SandboxArchiveSeeder.h"
#include "sandbox/SandboxConsumerGroup.h"
#include "sandbox/SandboxProducer.h"

#include <QHash>

#include <cmath>
#include <thread>

namespace groupscope::sandbox {

namespace {

using Clock = std::chrono::steady_clock;

// Problems older than this no longer show in the status line.
constexpr auto problemMaxAge = std::chrono::seconds(15);
constexpr auto metadataRetryInterval = std::chrono::milliseconds(200);

} // namespace

SandboxWorkload::SandboxWorkload(const kafka::ConnectionProfile& profile,
                                 const SandboxOptions& options)
    : m_profile(profile)
    , m_options(options)
    , m_layout(SandboxLayout::standard(options.namePrefix, options.rateScale))
    , m_startedAt(Clock::now()) {}

SandboxWorkload::~SandboxWorkload() {
    stop();
}

kafka::Result<std::unique_ptr<SandboxWorkload>>
SandboxWorkload::start(const kafka::ConnectionProfile& profile, const SandboxOptions& options) {
    if (!std::isfinite(options.rateScale) || options.rateScale <= 0)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("the rate scale must be a positive number"));
    if (options.rebalanceInterval.count() <= 0)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("the rebalance interval must be positive"));
    if (profile.bootstrapServers.trimmed().isEmpty())
        return kafka::KafkaError::invalidArgument(QStringLiteral("no bootstrap servers given"));

    std::unique_ptr<SandboxWorkload> workload(new SandboxWorkload(profile, options));
    if (auto prepared = workload->prepareTopics(); !prepared)
        return prepared.error();
    if (auto started = workload->startWorkers(); !started)
        return started.error(); // the destructor stops whatever did start
    return workload;
}

kafka::Status SandboxWorkload::prepareTopics() {
    auto admin = kafka::AdminClient::create(m_profile, m_options.setupTimeout);
    if (!admin)
        return admin.error();
    kafka::AdminClient& client = *admin.value();
    // Reading the cluster's topics first tells an unreachable cluster apart (an error that
    // names the bootstrap servers) and shows which sandbox topics exist already.
    auto existing = client.topicPartitions();
    if (!existing)
        return existing.error();
    QHash<QString, int> existingPartitions;
    for (const kafka::TopicPartition& partition : existing.value())
        ++existingPartitions[partition.topic];

    QList<kafka::NewTopic> missing;
    for (const SandboxTopic& topic : m_layout.topics()) {
        const int partitions = existingPartitions.value(topic.name);
        if (partitions == 0)
            missing.append({topic.name, topic.partitions, 1});
        else if (partitions != topic.partitions)
            m_notes.append(QStringLiteral("topic %1 exists with %2 partitions (the sandbox would "
                                          "create %3); using it as it is")
                               .arg(topic.name)
                               .arg(partitions)
                               .arg(topic.partitions));
    }
    if (auto created = client.createTopics(missing); !created)
        return created.error();

    // New topics take a moment to show up in every broker's metadata; producers and
    // consumers cope with that, but the first status line should not report errors.
    const auto deadline = Clock::now() + m_options.setupTimeout;
    for (;;) {
        auto known = client.topicPartitions(m_layout.topicNames());
        if (known)
            break;
        if (Clock::now() > deadline)
            return known.error();
        std::this_thread::sleep_for(metadataRetryInterval);
    }
    chooseFulfilmentProtocol(client, deadline);
    return kafka::Done{};
}

void SandboxWorkload::chooseFulfilmentProtocol(kafka::AdminClient& admin,
                                               Clock::time_point deadline) {
    // Any broker answers for the cluster's setting; the one leading a sandbox partition is
    // known to be up. On a fresh broker the new topic's leader and the broker's answer
    // may take a moment: asked again until the setup deadline, so the classic fallback is
    // taken only when the cluster really lacks the protocol (or never answers).
    std::optional<bool> offered;
    for (;;) {
        auto partitions = admin.describePartitions({m_layout.payments.name});
        if (partitions && !partitions.value().isEmpty() && partitions.value().first().leader >= 0)
            if (auto protocols =
                    admin.brokerConfig(partitions.value().first().leader,
                                       QStringLiteral("group.coordinator.rebalance.protocols")))
                // Kafka 4 lists "consumer" by default, Kafka 3.x not; an older broker has
                // no such setting at all.
                offered = protocols.value().value_or(QString()).split(u',').contains(
                    QStringLiteral("consumer"));
        if (offered || Clock::now() > deadline)
            break;
        std::this_thread::sleep_for(metadataRetryInterval);
    }
    if (offered.value_or(false))
        return;
    m_layout.fulfilment.consumerProtocol = false;
    m_protocolNote =
        (offered ? QStringLiteral("group %1 uses the classic protocol: this cluster does not "
                                  "offer the consumer protocol (group.coordinator.rebalance."
                                  "protocols has no \"consumer\"; Kafka 4 has it by default)")
                       .arg(m_layout.fulfilment.name)
                 : QStringLiteral("group %1 uses the classic protocol: the cluster's "
                                  "configuration could not be read to tell whether it offers "
                                  "the consumer protocol")
                       .arg(m_layout.fulfilment.name));
}

kafka::Status SandboxWorkload::startWorkers() {
    for (const SandboxTopic& topic : m_layout.topics()) {
        auto producer = SandboxProducer::start(m_profile, topic);
        if (!producer)
            return producer.error();
        m_producers.push_back(std::move(producer.value()));
    }
    const QList<QPair<SandboxGroup, QList<int>>> groups = {
        {m_layout.billing, {1}},
        {m_layout.analytics, {1}},
        {m_layout.shipping, shippingMemberPattern()},
        {m_layout.fulfilment, fulfilmentMemberPattern()},
        {m_layout.refundsGroup, {1}},
    };
    for (const auto& [group, pattern] : groups) {
        auto consumerGroup =
            SandboxConsumerGroup::start(m_profile, group, pattern, m_options.rebalanceInterval);
        if (!consumerGroup)
            return consumerGroup.error();
        m_groups.push_back(std::move(consumerGroup.value()));
    }
    m_archiveSeeder =
        SandboxArchiveSeeder::start(m_profile, m_layout.archive, m_options.setupTimeout);
    return kafka::Done{};
}

void SandboxWorkload::stop() {
    // Everyone is asked first, so producers flush and members leave at the same time.
    for (const auto& producer : m_producers)
        producer->requestStop();
    for (const auto& group : m_groups)
        group->requestStop();
    if (m_archiveSeeder)
        m_archiveSeeder->requestStop();
    for (const auto& producer : m_producers)
        producer->stop();
    for (const auto& group : m_groups)
        group->stop();
    if (m_archiveSeeder)
        m_archiveSeeder->stop();
}

SandboxStatus SandboxWorkload::status() const {
    SandboxStatus status;
    status.uptimeSeconds =
        std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - m_startedAt).count();
    for (const auto& producer : m_producers) {
        status.topics.append({producer->topic().name, producer->deliveredCount()});
        if (QString problem = producer->recentProblem(problemMaxAge); !problem.isEmpty())
            status.problems.append(problem);
    }
    for (const auto& group : m_groups) {
        const ProcessingContinuity::Counts continuity = group->continuity();
        status.groups.append({group->group().name, group->memberCount(), continuity.processed,
                              continuity.gaps, continuity.skipped, continuity.duplicates});
        if (QString problem = group->recentProblem(problemMaxAge); !problem.isEmpty())
            status.problems.append(problem);
    }
    status.groups.append({m_layout.archive.name, 0});
    if (m_archiveSeeder) {
        status.archiveOutcome = m_archiveSeeder->outcome();
        status.archive = m_archiveSeeder->description();
    }
    return status;
}

} // namespace groupscope::sandbox
