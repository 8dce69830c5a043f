#pragma once

#include "kafka/AdminClient.h"
#include "offsets/OffsetsCsv.h"
#include "offsets/ResetPlan.h"
#include "offsets/ResetRowResolution.h"

#include <functional>

namespace groupscope::offsets {

// Which partitions of a group a reset covers, as kafka-consumer-groups names them.
struct ResetScope {
    bool allTopics = false; // every partition the group has a committed offset for
    QStringList topics;     // "topic" (all its partitions) or "topic:0,2,5"
};

// Resolves reset requests against the live cluster, the way Kafka's own tool does:
// offsets and shifts are clamped to [log start, log end] with a warning; a time after the
// last record falls back to the log end with a warning; shifting a partition with no
// committed offset is an error for that row; to-current on such a partition takes the log
// end; partitions that do not exist or have no leader are errors. Unlike Kafka's tool,
// a bad row does not abort the plan: it is reported on its row, and apply refuses a plan
// with errors. Lookups are batched (one log-offsets and one timestamp request per leader).
// Planning is two steps: fetchFacts asks the cluster, resolveResetPlan (pure, see
// ResetRowResolution.h) applies those rules to what it said.
class ResetPlanner {
public:
    using NowFunction = std::function<int64_t()>; // ms since the epoch (injectable for tests)

    explicit ResetPlanner(kafka::AdminClient& admin, NowFunction now = {});

    // The rows a scope covers for each group, all with the same spec.
    // A copy (to-group) from a group without commits: what is said instead of a plan.
    static kafka::KafkaError noCommitsToCopy(const QString& sourceGroup);
    kafka::Result<QList<RowRequest>> expandScope(const QStringList& groupIds,
                                                 const ResetScope& scope, const ResetSpec& spec);
    // Rows from an offsets file: each becomes "to offset N" for its group. With a source
    // name, each row's errors (found only when planning, such as a partition that does not
    // exist) start with "source:line: ".
    static QList<RowRequest> fromCsvRows(const QList<OffsetsCsvRow>& rows,
                                         const QString& sourceName = {});

    // fetchFacts, then resolveResetPlan.
    kafka::Result<ResetPlan> plan(const QList<RowRequest>& requests);
    // The network step: metadata per topic, the groups' committed offsets, log offsets of
    // the valid partitions, and offsets for each distinct timestamp, each batched.
    kafka::Result<PlanFacts> fetchFacts(const QList<RowRequest>& requests);

private:
    kafka::Status fetchLeaders(const QList<RowRequest>& requests, PlanFacts& facts);
    kafka::Status fetchOffsetsForTimes(const QList<RowRequest>& requests, PlanFacts& facts);

    kafka::AdminClient& m_admin;
    NowFunction m_now;
};

// Parses "topic" or "topic:0,1,2" as Kafka's --topic does.
kafka::Result<QPair<QString, QList<int32_t>>> parseTopicArgument(const QString& argument);

} // namespace groupscope::offsets
