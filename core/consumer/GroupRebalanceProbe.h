#pragma once

#include <librdkafka/rdkafka.h>

#include <QByteArray>
#include <QString>

#include <chrono>

namespace groupscope::consumer {

// Asks the group coordinator, through the consumer's own handle, whether the group is in
// the middle of a rebalance. The reposition engine asks before a COOPERATIVE member
// commits on a librdkafka that turns a commit rejected for a stale generation into a lost
// assignment (see RebalanceCommitGate): the member itself learns of a rebalance another
// member started only at its next heartbeat, the coordinator knows at once.
class GroupRebalanceProbe {
public:
    GroupRebalanceProbe(rd_kafka_t* consumer, const QString& groupId,
                        std::chrono::milliseconds timeout);

    // True when the coordinator says the group is preparing or completing a rebalance.
    // False when it is stable, and when it could not say (no answer in time, or not
    // allowed to describe the group): the commit is then made as it would have been.
    bool isRebalancing() const;

    // librdkafka before 2.10 (confluentinc/librdkafka#4059, fixed by #4908) needs this.
    static bool commitDuringJoinLosesAssignment();

private:
    rd_kafka_t* m_consumer;
    QByteArray m_groupId;
    std::chrono::milliseconds m_timeout;
};

} // namespace groupscope::consumer
