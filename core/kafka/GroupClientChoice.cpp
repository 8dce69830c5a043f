#include "kafka/GroupClientChoice.h"

#include "kafka/protocol/ConnectionSecurity.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka {

GroupClientChoice GroupClientChoice::forProfile(const ConnectionProfile& profile) {
    GroupClientChoice choice;
    const QString forced = qEnvironmentVariable(environmentVariable).trimmed();
    if (forced.compare(u"librdkafka", Qt::CaseInsensitive) == 0) {
        choice.ownClient = false;
        choice.reason = KafkaError{
            RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED,
            QStringLiteral("%1=%2 is set").arg(QLatin1String(environmentVariable), forced), false,
            false};
        return choice;
    }
    if (auto security = protocol::ConnectionSecurity::fromProfile(profile); !security) {
        choice.ownClient = false;
        choice.reason = security.error();
    }
    return choice;
}

QString GroupClientChoice::fallbackNote() const {
    return ownClient ? QString() : fallbackNote(reason);
}

QString GroupClientChoice::fallbackNote(const KafkaError& reason) {
    return QStringLiteral("%1; the cluster is read through librdkafka instead, which cannot "
                          "show share or streams groups, member and group epochs, share-group "
                          "start offsets or the lag detail read from the log, and asks for each "
                          "group separately")
        .arg(reason.message);
}

} // namespace groupscope::kafka
