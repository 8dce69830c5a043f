#include "offsets/ResetSession.h"

#include "offsets/GroupDeleter.h"
#include "offsets/JournaledWrite.h"

#include "offsets/OffsetsCsv.h"

namespace groupscope::offsets {

using kafka::KafkaError;
using kafka::TopicPartition;

namespace {

// "topic" (every partition, from metadata) or "topic:0,2" arguments as partitions.
kafka::Result<QList<TopicPartition>> partitionsOf(kafka::AdminClient& admin,
                                                  const QStringList& topics) {
    QList<TopicPartition> partitions;
    for (const QString& argument : topics) {
        auto parsed = parseTopicArgument(argument);
        if (!parsed)
            return parsed.error();
        const auto& [topic, listed] = parsed.value();
        if (!listed.isEmpty()) {
            for (int32_t partition : listed)
                partitions.append({topic, partition});
            continue;
        }
        auto all = admin.topicPartitions({topic});
        if (!all)
            return all.error();
        partitions.append(all.value());
    }
    return partitions;
}

// The journal's description of rows edited in a table: their spec when they share one.
template <typename Rows> QString describeSpecs(const Rows& rows) {
    QStringList specs;
    for (const auto& row : rows)
        specs.append(row.spec.describe());
    specs.removeDuplicates();
    return specs.size() == 1 ? specs.first() : QStringLiteral("edited in the offsets table");
}

// The rows that undo an entry (back to each partition's "before"), plus the partitions
// whose commit the entry created and undo therefore deletes.
QList<RowRequest> undoRequests(const JournalEntry& entry, QList<TopicPartition>& deletions) {
    QList<RowRequest> requests;
    for (const JournalPartition& partition : entry.partitions) {
        if (!partition.changed())
            continue;
        if (partition.before)
            requests.append(
                {entry.groupId, partition.topicPartition, ResetSpec::toOffset(*partition.before)});
        else
            deletions.append(partition.topicPartition);
    }
    return requests;
}

} // namespace

ResetSession ResetSession::forRequests(QList<RowRequest> requests) {
    ResetSession session;
    session.m_description = describeSpecs(requests);
    session.m_describedBySpecs = true;
    session.m_requests = std::move(requests);
    return session;
}

kafka::Result<ResetSession> ResetSession::forScope(kafka::AdminClient& admin,
                                                   const QStringList& groupIds,
                                                   const ResetScope& scope, const ResetSpec& spec) {
    auto requests = ResetPlanner(admin).expandScope(groupIds, scope, spec);
    if (!requests)
        return requests.error();
    ResetSession session;
    session.m_requests = std::move(requests).value();
    session.m_description =
        QStringLiteral("%1 %2").arg(resetModeName(spec.mode), spec.text).trimmed();
    return session;
}

kafka::Result<ResetSession> ResetSession::fromFile(const QString& path,
                                                   const QStringList& groupIds) {
    auto rows = OffsetsCsv::readFile(path, groupIds);
    if (!rows)
        return rows.error();
    ResetSession session;
    session.m_requests = ResetPlanner::fromCsvRows(rows.value(), path);
    session.m_description = QStringLiteral("from-file %1").arg(path);
    return session;
}

kafka::Result<ResetSession> ResetSession::undoOf(const JournalEntry& entry) {
    if (entry.state == JournalState::InDoubt)
        return KafkaError::invalidArgument(
            QStringLiteral("entry %1 is in doubt (its outcome was never recorded); connect to "
                           "its cluster once so that Groupscope reads the outcome back, then "
                           "undo it")
                .arg(entry.id));
    if (GroupDeleter::cannotRecreate(entry))
        return KafkaError::invalidArgument(
            QStringLiteral("entry %1 deleted %2 '%3', which commits cannot re-create (its "
                           "members must create it again); the offsets it had are in the "
                           "entry: groupscope-cli history --group %3 --json")
                .arg(entry.id, entry.description.mid(QStringLiteral("delete ").size()),
                     entry.groupId));
    ResetSession session;
    QList<TopicPartition> deletions;
    session.m_requests = undoRequests(entry, deletions);
    if (session.m_requests.isEmpty() && deletions.isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("entry %1 changed nothing; there is nothing to undo").arg(entry.id));
    if (!deletions.isEmpty())
        session.m_deletions.insert(entry.groupId, deletions);
    session.m_description = QStringLiteral("undo of %1").arg(entry.id);
    session.m_undoOf = entry.id;
    session.m_undoneParts = entry.partitions;
    for (const JournalPartition& partition : entry.partitions)
        if (!partition.beforeMetadata.isEmpty())
            session.m_undoMetadata.insert(partition.topicPartition, partition.beforeMetadata);
    session.m_undoneClusterId = entry.clusterId;
    session.m_undoneCluster = entry.cluster;
    return session;
}

kafka::Result<ResetSession> ResetSession::deleting(kafka::AdminClient& admin,
                                                   const QString& groupId,
                                                   const QStringList& topics) {
    auto partitions = partitionsOf(admin, topics);
    if (!partitions)
        return partitions.error();
    ResetSession session;
    session.m_deletions.insert(groupId, partitions.value());
    session.m_description = QStringLiteral("delete-offsets %1").arg(topics.join(u' '));
    // Nothing to resolve: a deletion names its partitions and moves no offset.
    session.m_planned = true;
    return session;
}

QString ResetSession::clusterMismatch(const JournalEntry& entry, const QString& clusterId,
                                      const QString& bootstrapServers) {
    if (!entry.clusterId.isEmpty() && !clusterId.isEmpty()) {
        if (entry.clusterId == clusterId)
            return {};
        return QStringLiteral("entry %1 was recorded on cluster id %2 (%3), you are connected to "
                              "cluster id %4 (%5)")
            .arg(entry.id, entry.clusterId, entry.cluster, clusterId, bootstrapServers);
    }
    if (entry.cluster == bootstrapServers)
        return {};
    return QStringLiteral("entry %1 was recorded for cluster %2, you are connected to %3")
        .arg(entry.id, entry.cluster, bootstrapServers);
}

kafka::Status ResetSession::resolve(kafka::AdminClient& admin) {
    m_previews.clear(); // they belonged to the previous plan's offsets
    m_plan = {};
    if (!m_requests.isEmpty()) {
        auto plan = ResetPlanner(admin).plan(m_requests);
        if (!plan)
            return plan.error();
        m_plan = std::move(plan).value();
    }
    m_planned = true;
    return m_undoOf.isEmpty() ? kafka::Status(kafka::Done{}) : findUndoConflicts(admin);
}

kafka::Status ResetSession::findUndoConflicts(kafka::AdminClient& admin) {
    m_undoConflicts.clear();
    JournalEntry undone;
    undone.id = m_undoOf;
    undone.clusterId = m_undoneClusterId;
    undone.cluster = m_undoneCluster;
    const auto clusterId = admin.clusterId();
    m_undoClusterMismatch = clusterMismatch(undone, clusterId ? clusterId.value() : QString(),
                                            admin.profile().bootstrapServers);
    auto committed =
        JournaledWrite::readCommitted(admin, m_undoneParts.isEmpty() ? QString() : groupOfUndo());
    if (!committed)
        return committed.error();
    for (const JournalPartition& partition : m_undoneParts) {
        if (!partition.changed())
            continue;
        const auto found = committed.value().constFind(partition.topicPartition);
        const std::optional<int64_t> now =
            found == committed.value().cend() ? std::nullopt : std::optional<int64_t>(*found);
        if (now != partition.after)
            m_undoConflicts.append(
                {partition.topicPartition, partition.before, partition.after, now});
    }
    return kafka::Done{};
}

QString ResetSession::groupOfUndo() const {
    if (!m_requests.isEmpty())
        return m_requests.first().groupId;
    return m_deletions.isEmpty() ? QString() : m_deletions.cbegin().key();
}

void ResetSession::skipUndoConflicts() {
    QSet<TopicPartition> conflicting;
    for (const UndoConflict& conflict : m_undoConflicts)
        conflicting.insert(conflict.topicPartition);
    m_plan.rows.removeIf(
        [&](const PlanRow& row) { return conflicting.contains(row.topicPartition); });
    for (auto& partitions : m_deletions)
        partitions.removeIf([&](const TopicPartition& tp) { return conflicting.contains(tp); });
    m_deletions.removeIf([](const auto& group) { return group.value().isEmpty(); });
    m_undoConflicts.clear();
}

void ResetSession::replacePlanRows(const QString& groupId, const QList<PlanRow>& rows) {
    m_plan.rows.removeIf([&](const PlanRow& row) { return row.groupId == groupId; });
    m_plan.rows.append(rows);
    std::sort(m_plan.rows.begin(), m_plan.rows.end(), [](const PlanRow& a, const PlanRow& b) {
        return std::tie(a.groupId, a.topicPartition) < std::tie(b.groupId, b.topicPartition);
    });
    m_previews.clear();
}

void ResetSession::previewRecords(const kafka::ConnectionProfile& profile,
                                  std::chrono::milliseconds timeout,
                                  const std::atomic<bool>* cancelled) {
    m_previews = RecordPreviewer::preview(profile, m_plan, timeout, 48, cancelled);
}

std::optional<RecordPreview> ResetSession::nextRecord(const PlanRow& row) const {
    if (!row.newOffset)
        return std::nullopt;
    const auto found = m_previews.constFind({row.topicPartition, *row.newOffset});
    if (found == m_previews.cend())
        return std::nullopt;
    return *found;
}

kafka::Result<QStringList> ResetSession::activeGroupRefusals(kafka::AdminClient& admin) const {
    const QStringList groups = m_plan.groups();
    if (groups.isEmpty())
        return QStringList();
    auto described = admin.describeGroups(groups);
    if (!described)
        return described.error();
    QStringList refusals;
    for (const kafka::GroupDescription& group : described.value())
        if (!kafka::isInactive(group.state) && !group.members.isEmpty())
            refusals.append(ResetApplier::activeGroupRefusal(group));
    return refusals;
}

kafka::Result<QList<DeletionRow>> ResetSession::deletionRows(kafka::AdminClient& admin,
                                                             int* memberCount) const {
    QList<DeletionRow> rows;
    for (auto group = m_deletions.cbegin(); group != m_deletions.cend(); ++group) {
        auto committed = admin.listCommittedOffsets({group.key()});
        if (!committed)
            return committed.error();
        QHash<TopicPartition, int64_t> current;
        for (const auto& offset : committed.value().value(group.key()))
            current.insert(offset.topicPartition, offset.offset);
        for (const TopicPartition& tp : group.value())
            rows.append({tp, current.contains(tp) ? std::optional<int64_t>(current.value(tp))
                                                  : std::nullopt});
        if (memberCount) {
            // Only said, never a reason to stop: the broker answers per partition.
            auto described = admin.describeGroups({group.key()});
            *memberCount = described && !described.value().isEmpty()
                               ? int(described.value().first().members.size())
                               : 0;
        }
    }
    return rows;
}

void ResetSession::dropUnchangedRows() {
    m_plan.rows.erase(std::remove_if(m_plan.rows.begin(), m_plan.rows.end(),
                                     [](const PlanRow& row) { return !row.changes(); }),
                      m_plan.rows.end());
    if (m_describedBySpecs) // the entry names what is applied, not what was left alone
        m_description = describeSpecs(m_plan.rows);
}

kafka::Result<QList<GroupApplyResult>> ResetSession::apply(kafka::AdminClient& admin,
                                                           WriteJournal& journal,
                                                           const ApplySettings& settings) const {
    if (!m_planned)
        return KafkaError::invalidArgument(
            QStringLiteral("the reset has not been planned; nothing was applied"));
    ApplyOptions options;
    options.tool = settings.tool;
    options.description = m_description;
    options.undoOf = m_undoOf;
    options.deletions = m_deletions;
    if (!m_undoMetadata.isEmpty() && !m_undoneParts.isEmpty())
        options.metadata.insert(groupOfUndo(), m_undoMetadata);
    options.waitForEmpty = settings.waitForEmpty;
    options.onDrift = settings.onDrift;
    options.ignoreRecentCommits = settings.ignoreRecentCommits;
    options.recentCommits = settings.recentCommits;
    options.cancelled = settings.cancelled;
    return ResetApplier(admin, journal).apply(m_plan, options);
}

} // namespace groupscope::offsets
