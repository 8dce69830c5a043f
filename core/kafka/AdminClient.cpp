#include "kafka/AdminClient.h"

#include "kafka/GroupClientChoice.h"
#include "kafka/LibrdkafkaAdminClient.h"
#include "kafka/ProtocolAdminClient.h"

namespace groupscope::kafka {

Result<std::unique_ptr<AdminClient>> AdminClient::create(const ConnectionProfile& profile,
                                                         Milliseconds timeout) {
    if (profile.bootstrapServers.trimmed().isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("no bootstrap servers given"));
    // The own client unless the profile needs what it does not speak, or
    // GROUPSCOPE_GROUP_CLIENT=librdkafka asks for librdkafka (GroupClientChoice).
    const GroupClientChoice choice = GroupClientChoice::forProfile(profile);
    if (!choice.ownClient)
        return LibrdkafkaAdminClient::create(profile, timeout, choice.reason);
    auto own = ProtocolAdminClient::create(profile, timeout);
    if (!own)
        return LibrdkafkaAdminClient::create(profile, timeout, own.error());
    return own;
}

void AdminClient::renewIfCoordinatorMoved(std::unique_ptr<AdminClient>& client) {
    if (!client || !client->coordinatorMoved())
        return;
    auto renewed = create(client->profile(), client->timeout());
    if (!renewed)
        return;
    renewed.value()->setCancelFlag(client->cancelFlag());
    client = std::move(renewed).value();
}

Result<QList<TopicPartition>> AdminClient::topicPartitions(const QStringList& topics) {
    auto infos = describePartitions(topics);
    if (!infos)
        return infos.error();
    QList<TopicPartition> partitions;
    partitions.reserve(infos.value().size());
    for (const PartitionInfo& info : infos.value())
        partitions.append(info.topicPartition);
    return partitions;
}

} // namespace groupscope::kafka
