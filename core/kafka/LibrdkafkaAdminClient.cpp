#include "kafka/LibrdkafkaAdminClient.h"

#include "kafka/GroupClientChoice.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka {

LibrdkafkaAdminClient::LibrdkafkaAdminClient(const ConnectionProfile& profile, Milliseconds timeout,
                                             KafkaError why,
                                             std::unique_ptr<LibrdkafkaConnection> connection)
    : AdminClient(profile, timeout)
    , m_whyNotOwnClient(std::move(why))
    , m_connection(std::move(connection))
    , m_groups(*m_connection)
    , m_cluster(*m_connection) {}

Result<std::unique_ptr<AdminClient>> LibrdkafkaAdminClient::create(const ConnectionProfile& profile,
                                                                   Milliseconds timeout,
                                                                   const KafkaError& why) {
    auto connection = LibrdkafkaConnection::open(profile, timeout);
    if (!connection)
        return connection.error();
    return std::unique_ptr<AdminClient>(
        new LibrdkafkaAdminClient(profile, timeout, why, std::move(connection).value()));
}

void LibrdkafkaAdminClient::setCancelFlag(const std::atomic<bool>* cancelled) {
    AdminClient::setCancelFlag(cancelled);
    m_connection->setCancelFlag(cancelled);
}

void LibrdkafkaAdminClient::setTimeout(Milliseconds timeout) {
    AdminClient::setTimeout(timeout);
    m_connection->setTimeout(timeout);
}

QString LibrdkafkaAdminClient::fallbackNote() const {
    return GroupClientChoice::fallbackNote(m_whyNotOwnClient);
}

Result<QList<StableOffset>> LibrdkafkaAdminClient::lastStableOffsets(const QList<TopicPartition>&) {
    return KafkaError{RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED, fallbackNote(), false, false};
}

Result<QList<LogRead>> LibrdkafkaAdminClient::readLogs(const QList<LogReadRequest>&) {
    return KafkaError{RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED, fallbackNote(), false, false};
}

} // namespace groupscope::kafka
