#include "kafka/LibrdkafkaClusterRequests.h"

#include "kafka/LibrdkafkaDetail.h"

#include <librdkafka/rdkafka.h>

#include <vector>

namespace groupscope::kafka {

using detail::eventError;

namespace {

// Kafka's text form of a Uuid (URL-safe base64 of its 16 bytes, no padding), as the
// offsets-topic decoder writes it. Built from the bits: librdkafka's own base64 string
// uses the standard alphabet, which differs from Kafka's in '+' and '/'.
QString kafkaUuidText(const rd_kafka_Uuid_t* id) {
    QByteArray bytes;
    for (int64_t half :
         {rd_kafka_Uuid_most_significant_bits(id), rd_kafka_Uuid_least_significant_bits(id)})
        for (int shift = 56; shift >= 0; shift -= 8)
            bytes.append(char((uint64_t(half) >> shift) & 0xFF));
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

Result<QHash<QString, QString>> LibrdkafkaClusterRequests::topicNamesById() {
    auto partitions = describePartitions({});
    if (!partitions)
        return partitions.error();
    QList<QByteArray> utf8;
    for (const PartitionInfo& info : partitions.value())
        if (utf8.isEmpty() || utf8.last() != info.topicPartition.topic.toUtf8())
            utf8.append(info.topicPartition.topic.toUtf8());
    QHash<QString, QString> names;
    if (utf8.isEmpty())
        return names;
    std::vector<const char*> topics;
    for (const QByteArray& name : utf8)
        topics.push_back(name.constData());
    const Deadline until = m_connection.deadline();
    TopicCollectionHandle collection(
        rd_kafka_TopicCollection_of_topic_names(topics.data(), topics.size()));
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_DESCRIBETOPICS, until);
    rd_kafka_DescribeTopics(m_connection.handle(), collection.get(), options.get(),
                            m_connection.queue());
    const QString what = QStringLiteral("describing topics for their ids");
    auto event = m_connection.waitForEvent(until, what, RD_KAFKA_EVENT_DESCRIBETOPICS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return m_connection.explain(error, what);
    size_t count = 0;
    const auto** descriptions =
        rd_kafka_DescribeTopics_result_topics(rd_kafka_event_DescribeTopics_result(raw), &count);
    for (size_t i = 0; i < count; ++i) {
        // A topic deleted since the metadata was read comes back with an error: skip it.
        if (rd_kafka_error_code(rd_kafka_TopicDescription_error(descriptions[i])))
            continue;
        const rd_kafka_Uuid_t* id = rd_kafka_TopicDescription_topic_id(descriptions[i]);
        if (!id)
            continue;
        names.insert(kafkaUuidText(id),
                     QString::fromUtf8(rd_kafka_TopicDescription_name(descriptions[i])));
    }
    return names;
}

} // namespace groupscope::kafka
