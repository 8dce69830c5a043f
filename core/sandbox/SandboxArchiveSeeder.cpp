#include "sandbox/SandboxArchiveSeeder.h"

#include "kafka/AdminClient.h"

#include <QMutexLocker>

#include <algorithm>

namespace groupscope::sandbox {

namespace {

using Clock = StopFlag::Clock;

// Fresh topics are empty when the sandbox starts; waiting until every partition holds a
// few messages gives the offsets a real middle. Past this wait, whatever is there is used.
constexpr int64_t wantedMessagesPerPartition = 4;
constexpr auto maxWaitForData = std::chrono::seconds(15);
constexpr auto retryInterval = std::chrono::seconds(1);
// Problems (coordinator still loading, broker briefly away) are retried this long.
constexpr auto giveUpAfter = std::chrono::seconds(60);

} // namespace

SandboxArchiveSeeder::SandboxArchiveSeeder(const kafka::ConnectionProfile& profile,
                                           const SandboxGroup& group,
                                           std::chrono::milliseconds timeout)
    : m_profile(profile)
    , m_group(group)
    , m_timeout(timeout) {}

SandboxArchiveSeeder::~SandboxArchiveSeeder() {
    stop();
}

std::unique_ptr<SandboxArchiveSeeder>
SandboxArchiveSeeder::start(const kafka::ConnectionProfile& profile, const SandboxGroup& group,
                            std::chrono::milliseconds timeout) {
    std::unique_ptr<SandboxArchiveSeeder> seeder(new SandboxArchiveSeeder(profile, group, timeout));
    seeder->setOutcome(Outcome::Pending, QStringLiteral("waiting for data"));
    seeder->m_thread = std::thread([self = seeder.get()] { self->run(); });
    return seeder;
}

void SandboxArchiveSeeder::requestStop() {
    m_stop.requestStop();
}

void SandboxArchiveSeeder::stop() {
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

SandboxArchiveSeeder::Outcome SandboxArchiveSeeder::outcome() const {
    QMutexLocker lock(&m_outcomeMutex);
    return m_outcome;
}

QString SandboxArchiveSeeder::description() const {
    QMutexLocker lock(&m_outcomeMutex);
    return m_description;
}

void SandboxArchiveSeeder::setOutcome(Outcome outcome, const QString& description) {
    QMutexLocker lock(&m_outcomeMutex);
    m_outcome = outcome;
    m_description = description;
}

void SandboxArchiveSeeder::run() {
    auto admin = kafka::AdminClient::create(m_profile, m_timeout);
    if (!admin) {
        setOutcome(Outcome::Failed, admin.error().message);
        return;
    }
    const auto dataDeadline = Clock::now() + maxWaitForData;
    const auto giveUpDeadline = Clock::now() + giveUpAfter;
    while (!trySeed(*admin.value(), dataDeadline)) {
        if (Clock::now() > giveUpDeadline) {
            setOutcome(Outcome::Failed, QStringLiteral("gave up: ") + description());
            return;
        }
        if (m_stop.waitFor(retryInterval))
            return;
    }
}

bool SandboxArchiveSeeder::trySeed(kafka::AdminClient& client, Clock::time_point dataDeadline) {
    auto committed = client.listCommittedOffsets({m_group.name});
    if (!committed) {
        setOutcome(Outcome::Pending, QStringLiteral("retrying: ") + committed.error().message);
        return false;
    }
    if (const qsizetype existing = committed.value().value(m_group.name).size(); existing > 0) {
        setOutcome(Outcome::KeptExisting,
                   QStringLiteral("kept its offsets on %1 partitions").arg(existing));
        return true;
    }
    auto partitions = client.topicPartitions(m_group.topics);
    if (!partitions) {
        setOutcome(Outcome::Pending, QStringLiteral("retrying: ") + partitions.error().message);
        return false;
    }
    auto logs = client.logOffsets(partitions.value());
    if (!logs) {
        setOutcome(Outcome::Pending, QStringLiteral("retrying: ") + logs.error().message);
        return false;
    }
    QList<QPair<kafka::TopicPartition, int64_t>> middles;
    bool enoughData = true;
    for (const kafka::LogOffsets& log : logs.value()) {
        if (log.error) {
            setOutcome(Outcome::Pending, QStringLiteral("retrying: ") + log.error.message);
            return false;
        }
        const int64_t logStart = std::max<int64_t>(0, log.logStartOffset);
        const int64_t logEnd = std::max(logStart, log.logEndOffset);
        enoughData = enoughData && logEnd - logStart >= wantedMessagesPerPartition;
        middles.append({log.topicPartition, logStart + (logEnd - logStart) / 2});
    }
    if (!enoughData && Clock::now() < dataDeadline)
        return false;
    auto written = client.alterCommittedOffsets(m_group.name, middles);
    if (!written) {
        setOutcome(Outcome::Pending, QStringLiteral("retrying: ") + written.error().message);
        return false;
    }
    for (const kafka::PartitionOutcome& partition : written.value())
        if (partition.error) {
            setOutcome(Outcome::Pending,
                       QStringLiteral("retrying: %1: %2")
                           .arg(partition.topicPartition.toString(), partition.error.message));
            return false;
        }
    setOutcome(Outcome::Committed,
               QStringLiteral("offsets committed mid-log on %1 partitions").arg(middles.size()));
    return true;
}

} // namespace groupscope::sandbox
