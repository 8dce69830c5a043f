#include "kafka/ClusterAdminClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::MessageCodec;
using protocol::Struct;
using protocol::StructList;

namespace {

// DescribeConfigs' resource type of a broker.
constexpr int8_t brokerResource = 4;

// Kafka's text form of a Uuid: URL-safe base64 of its 16 bytes, no padding.
QString uuidText(const QByteArray& bytes) {
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

using protocol::answerError;

Result<Struct> ClusterAdminClient::metadata(const QStringList& topics, bool allTopics) {
    const Deadline until = deadline();
    Result<BrokerConnection*> connection = m_cluster.anyConnection(until);
    if (!connection)
        return connection.error();
    const protocol::ApiSpec& api = protocol::metadataApi();
    Struct request = MessageCodec::make(api.request);
    if (allTopics)
        request.setNull("Topics");
    else if (topics.isEmpty())
        request.set("Topics", StructList());
    for (const QString& topic : topics)
        request.add("Topics").set("Name", topic);
    request.setBool("AllowAutoTopicCreation", false);
    Result<Struct> answer = connection.value()->call(api, request, until);
    if (answer)
        if (KafkaError error = answerError(answer.value(), QStringLiteral("Metadata")))
            return error;
    return answer;
}

Result<QList<PartitionInfo>> ClusterAdminClient::describePartitions(const QStringList& topics) {
    Result<Struct> answer = metadata(topics, topics.isEmpty());
    if (!answer)
        return answer.error();
    QList<PartitionInfo> partitions;
    for (const Struct& topic : answer.value().structs("Topics")) {
        const QString name = topic.string("Name");
        const int64_t code = topic.integer("ErrorCode");
        if (code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            return KafkaError{int(code), QStringLiteral("topic '%1' does not exist").arg(name),
                              false, false};
        if (code != 0) {
            // Listing every topic leaves out one that cannot be described right now; a named
            // topic is an error.
            if (topics.isEmpty())
                continue;
            return KafkaError::fromCode(int(code), QStringLiteral("topic '%1'").arg(name));
        }
        for (const Struct& partition : topic.structs("Partitions"))
            partitions.append({{name, int32_t(partition.integer("PartitionIndex"))},
                               int32_t(partition.integer("LeaderId"))});
    }
    std::sort(partitions.begin(), partitions.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return partitions;
}

Result<QString> ClusterAdminClient::clusterId() {
    Result<Struct> answer = metadata({}, false);
    if (!answer)
        return answer.error();
    return answer.value().string("ClusterId");
}

Result<QHash<QString, QString>> ClusterAdminClient::topicNamesById() {
    Result<Struct> answer = metadata({}, true);
    if (!answer)
        return answer.error();
    QHash<QString, QString> names;
    for (const Struct& topic : answer.value().structs("Topics")) {
        const QByteArray id = topic.bytes("TopicId");
        // A broker before Metadata v10 has no ids (all zeros); a topic being deleted errs.
        if (topic.integer("ErrorCode") == 0 && id.count('\0') != id.size())
            names.insert(uuidText(id), topic.string("Name"));
    }
    return names;
}

Status ClusterAdminClient::createTopics(const QList<NewTopic>& topics) {
    if (topics.isEmpty())
        return Done{};
    const Deadline until = deadline();
    Result<BrokerConnection*> connection = m_cluster.anyConnection(until);
    if (!connection)
        return connection.error();
    const protocol::ApiSpec& api = protocol::createTopicsApi();
    Struct request = MessageCodec::make(api.request);
    for (const NewTopic& topic : topics)
        request.add("Topics")
            .set("Name", topic.name)
            .set("NumPartitions", topic.partitions)
            .set("ReplicationFactor", topic.replicationFactor);
    // Answer once the controller has created the topics, so they can be used at once.
    request.set("TimeoutMs", int(m_timeout.count()));
    Result<Struct> answer = connection.value()->call(api, request, until);
    if (!answer)
        return answer.error();
    for (const Struct& topic : answer.value().structs("Topics")) {
        // A run before this one (or someone else) created it: use it as it is.
        if (topic.integer("ErrorCode") == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
            continue;
        if (KafkaError error =
                answerError(topic, QStringLiteral("creating topic %1").arg(topic.string("Name"))))
            return error;
    }
    return Done{};
}

Result<std::optional<QString>> ClusterAdminClient::brokerConfig(int32_t brokerId,
                                                                const QString& name) {
    const Deadline until = deadline();
    // A broker's own configuration is described by that broker.
    Result<BrokerConnection*> connection = m_cluster.connection(brokerId, until);
    if (!connection)
        return connection.error();
    const protocol::ApiSpec& api = protocol::describeConfigsApi();
    Struct request = MessageCodec::make(api.request);
    request.add("Resources")
        .set("ResourceType", brokerResource)
        .set("ResourceName", QString::number(brokerId))
        .set("ConfigurationKeys", QStringList{name});
    Result<Struct> answer = connection.value()->call(api, request, until);
    if (!answer)
        return answer.error();
    const QString what = QStringLiteral("describing broker %1's configuration").arg(brokerId);
    for (const Struct& result : answer.value().structs("Results")) {
        if (KafkaError error = answerError(result, what))
            return error;
        for (const Struct& config : result.structs("Configs"))
            if (config.string("Name") == name)
                return std::optional<QString>(config.string("Value"));
    }
    return std::optional<QString>();
}

} // namespace groupscope::kafka
