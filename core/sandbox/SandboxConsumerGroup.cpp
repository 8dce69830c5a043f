#include "sandbox/SandboxConsumerGroup.h"

#include <algorithm>

namespace groupscope::sandbox {

SandboxConsumerGroup::SandboxConsumerGroup(const kafka::ConnectionProfile& profile,
                                           const SandboxGroup& group,
                                           const QList<int>& memberCountPattern,
                                           Milliseconds interval)
    : m_profile(profile)
    , m_group(group)
    , m_pattern(memberCountPattern)
    , m_interval(interval) {}

SandboxConsumerGroup::~SandboxConsumerGroup() {
    stop();
}

kafka::Result<std::unique_ptr<SandboxConsumerGroup>>
SandboxConsumerGroup::start(const kafka::ConnectionProfile& profile, const SandboxGroup& group,
                            const QList<int>& memberCountPattern, Milliseconds interval) {
    if (memberCountPattern.isEmpty() ||
        std::any_of(memberCountPattern.begin(), memberCountPattern.end(),
                    [](int count) { return count < 0; }))
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("group %1: the member count pattern must not be empty or negative")
                .arg(group.name));
    if (memberCountPattern.size() > 1 && interval.count() <= 0)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("group %1: the rebalance interval must be positive").arg(group.name));
    std::unique_ptr<SandboxConsumerGroup> consumerGroup(
        new SandboxConsumerGroup(profile, group, memberCountPattern, interval));
    // The first members start here, so a configuration problem is reported to the caller.
    if (auto started = consumerGroup->resize(memberCountPattern.first()); !started)
        return started.error();
    consumerGroup->m_thread = std::thread([self = consumerGroup.get()] { self->run(); });
    return consumerGroup;
}

void SandboxConsumerGroup::requestStop() {
    m_stop.requestStop();
    std::lock_guard lock(m_membersMutex);
    for (const auto& member : m_members)
        member->requestStop();
}

void SandboxConsumerGroup::stop() {
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
    std::vector<std::unique_ptr<SandboxConsumerMember>> leaving;
    {
        std::lock_guard lock(m_membersMutex);
        leaving.swap(m_members);
    }
    for (const auto& member : leaving)
        member->stop();
}

int SandboxConsumerGroup::memberCount() const {
    std::lock_guard lock(m_membersMutex);
    return int(m_members.size());
}

QString SandboxConsumerGroup::recentProblem(LastProblem::Clock::duration maxAge) const {
    std::lock_guard lock(m_membersMutex);
    for (const auto& member : m_members)
        if (QString problem = member->recentProblem(maxAge); !problem.isEmpty())
            return problem;
    return {};
}

void SandboxConsumerGroup::run() {
    if (m_pattern.size() < 2)
        return; // a steady group has nothing to schedule; stop() stops its members
    qsizetype step = 0;
    auto nextChange = StopFlag::Clock::now() + m_interval;
    while (!m_stop.waitUntil(nextChange)) {
        step = (step + 1) % m_pattern.size();
        // A member that cannot start is retried at the next step; the problem shows in the
        // status line through the members that did start.
        (void)resize(m_pattern[step]);
        nextChange += m_interval;
    }
}

kafka::Status SandboxConsumerGroup::resize(int memberCount) {
    // The newest members leave first. Their close (commit, LeaveGroup) runs outside the
    // lock, so the status line never waits for a rebalance.
    std::vector<std::unique_ptr<SandboxConsumerMember>> leaving;
    {
        std::lock_guard lock(m_membersMutex);
        while (int(m_members.size()) > memberCount) {
            leaving.push_back(std::move(m_members.back()));
            m_members.pop_back();
        }
    }
    for (const auto& member : leaving)
        member->requestStop();
    leaving.clear(); // joins each member after its close

    while (memberCount > this->memberCount() && !m_stop.stopRequested()) {
        SandboxConsumerMember::Settings settings;
        settings.groupId = m_group.name;
        settings.topics = m_group.topics;
        settings.clientId =
            QStringLiteral("groupscope-sandbox-%1-%2").arg(m_group.name).arg(++m_membersStarted);
        settings.maxMessagesPerSecond = m_group.maxMessagesPerSecond / memberCount;
        settings.consumerProtocol = m_group.consumerProtocol;
        settings.failsOnMalformedRecords = m_group.failsOnMalformedRecords;
        auto member = SandboxConsumerMember::start(m_profile, settings, m_continuity);
        if (!member)
            return member.error();
        std::lock_guard lock(m_membersMutex);
        m_members.push_back(std::move(member.value()));
    }
    return kafka::Done{};
}

} // namespace groupscope::sandbox
