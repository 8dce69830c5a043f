#include "kafka/GroupWriteClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

// GroupWriteClient's deletion of whole groups (DeleteGroups).

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;

QHash<QString, KafkaError> GroupWriteClient::deleteGroups(const QStringList& groupIds) {
    QHash<QString, KafkaError> outcomes;
    const protocol::ApiSpec& api = protocol::deleteGroupsApi();
    m_coordinators.forEachCoordinator(
        groupIds, deadline(),
        CoordinatorRequests::oneRequest(
            api, deadline(),
            [&](const QStringList& ids) {
                Struct request = MessageCodec::make(api.request);
                request.set("GroupsNames", ids);
                return request;
            },
            [&](const QStringList& ids, const Result<Struct>& answer) {
                QStringList moved;
                if (!answer) {
                    for (const QString& groupId : ids)
                        outcomes.insert(groupId, answer.error());
                    return moved;
                }
                for (const Struct& result : answer.value().structs("Results")) {
                    const QString groupId = result.string("GroupId");
                    const int64_t code = result.integer("ErrorCode");
                    if (ClusterConnections::isCoordinatorMoving(code)) {
                        moved.append(groupId);
                        continue;
                    }
                    const QString message = result.string("ErrorMessage");
                    const QString what = QStringLiteral("deleting group %1").arg(groupId);
                    outcomes.insert(
                        groupId, code == 0
                                     ? KafkaError()
                                     : KafkaError::fromCode(
                                           int(code), message.isEmpty()
                                                          ? what
                                                          : what + QStringLiteral(": ") + message));
                }
                // A group the answer left out was not deleted, as far as anyone can tell.
                for (const QString& groupId : ids)
                    if (!outcomes.contains(groupId) && !moved.contains(groupId))
                        outcomes.insert(groupId, KafkaError::invalidArgument(
                                                     QStringLiteral("the broker did not answer for "
                                                                    "group %1")
                                                         .arg(groupId)));
                return moved;
            }),
        [&](const QString& groupId, const KafkaError& error) { outcomes.insert(groupId, error); });
    return outcomes;
}

} // namespace groupscope::kafka
