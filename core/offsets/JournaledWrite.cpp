#include "offsets/JournaledWrite.h"

namespace groupscope::offsets {

using kafka::KafkaError;
using kafka::TopicPartition;

namespace {

QString offsetText(const std::optional<int64_t>& offset) {
    return offset ? QString::number(*offset) : QStringLiteral("no commit");
}

std::optional<int64_t> committedAt(const QHash<TopicPartition, int64_t>& committed,
                                   const TopicPartition& tp) {
    const auto found = committed.constFind(tp);
    return found == committed.cend() ? std::nullopt : std::optional<int64_t>(*found);
}

// The cluster id, or empty when it cannot be read: the entry still records the bootstrap
// servers, and a write is not refused for want of an id.
QString clusterIdOf(kafka::AdminClient& admin) {
    auto id = admin.clusterId();
    return id ? id.value() : QString();
}

} // namespace

kafka::Result<QHash<TopicPartition, int64_t>>
JournaledWrite::readCommitted(kafka::AdminClient& admin, const QString& groupId) {
    auto committed = admin.listCommittedOffsets({groupId});
    if (!committed)
        return committed.error();
    QHash<TopicPartition, int64_t> offsets;
    for (const auto& offset : committed.value().value(groupId))
        offsets.insert(offset.topicPartition, offset.offset);
    return offsets;
}

kafka::Status JournaledWrite::begin(JournalEntry& entry, const QString& tool) {
    entry.id = WriteJournal::newEntryId();
    entry.time = QDateTime::currentDateTimeUtc();
    entry.cluster = m_admin.profile().bootstrapServers;
    entry.clusterId = clusterIdOf(m_admin);
    entry.appliedBy = WriteJournal::currentUser() + QStringLiteral(" via ") + tool;
    entry.state = JournalState::InDoubt;
    for (JournalPartition& partition : entry.partitions) {
        partition.after.reset();
        partition.error.clear();
    }
    return m_journal.insert(entry);
}

void JournaledWrite::resolveFromReadBack(JournalEntry& entry,
                                         const QHash<TopicPartition, int64_t>& committed,
                                         const QHash<TopicPartition, KafkaError>& answers,
                                         bool answered) {
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (JournalPartition& partition : entry.partitions) {
        const std::optional<int64_t> held = committedAt(committed, partition.topicPartition);
        const auto answer = answers.constFind(partition.topicPartition);
        const bool acknowledged = answered && answer != answers.cend() && !answer->isError();
        partition.error.clear();
        partition.overwrittenWith.reset();
        if (held == partition.planned) {
            partition.after = held;
            continue;
        }
        if (acknowledged) {
            // The broker took it, and something else is there already: a commit that
            // was on its way (a consumer that still runs) overwrote it.
            partition.after = partition.planned;
            partition.overwrittenWith = held.value_or(-1);
            partition.overwrittenAt = now;
            continue;
        }
        partition.after = held;
        QString why = !answered                  ? QStringLiteral("no answer was recorded")
                      : answer == answers.cend() ? QStringLiteral("the broker reported no outcome")
                                                 : answer->toString();
        partition.error =
            held == partition.before
                ? QStringLiteral("%1; read back: unchanged at %2").arg(why, offsetText(held))
                : QStringLiteral("%1; read back: now %2, neither the offset before (%3) nor "
                                 "the one written (%4)")
                      .arg(why, offsetText(held), offsetText(partition.before),
                           offsetText(partition.planned));
    }
}

kafka::Status JournaledWrite::finish(JournalEntry& entry, const Outcomes& outcomes) {
    QHash<TopicPartition, KafkaError> answers;
    if (outcomes)
        for (const auto& outcome : outcomes.value())
            answers.insert(outcome.topicPartition, outcome.error);
    else
        for (const JournalPartition& partition : entry.partitions)
            answers.insert(partition.topicPartition, outcomes.error());
    auto committed = readCommitted(m_admin, entry.groupId);
    if (!committed) {
        // What the broker said is kept, and the entry stays in doubt until read back.
        for (JournalPartition& partition : entry.partitions) {
            const KafkaError answer = answers.value(partition.topicPartition);
            partition.after = answer ? partition.before : partition.planned;
            partition.error = answer ? answer.toString() : QString();
        }
        entry.note = QStringLiteral("the outcome could not be read back (%1); it is read "
                                    "again when Groupscope next connects to this cluster")
                         .arg(committed.error().message);
        m_journal.update(entry);
        return KafkaError::invalidArgument(entry.note);
    }
    resolveFromReadBack(entry, committed.value(), answers, true);
    entry.state = JournalState::Done;
    return m_journal.update(entry);
}

kafka::Result<QList<JournalEntry>> recoverInDoubtEntries(kafka::AdminClient& admin,
                                                         WriteJournal& journal) {
    auto inDoubt = journal.inDoubt();
    if (!inDoubt)
        return inDoubt.error();
    QList<JournalEntry> recovered;
    if (inDoubt.value().isEmpty())
        return recovered;
    const QString clusterId = clusterIdOf(admin);
    for (JournalEntry entry : inDoubt.value()) {
        const bool sameCluster = entry.clusterId.isEmpty()
                                     ? entry.cluster == admin.profile().bootstrapServers
                                     : entry.clusterId == clusterId;
        if (!sameCluster)
            continue;
        auto committed = JournaledWrite::readCommitted(admin, entry.groupId);
        if (!committed)
            return committed.error();
        JournaledWrite::resolveFromReadBack(entry, committed.value(), {}, false);
        entry.state = JournalState::Recovered;
        entry.note = QStringLiteral("recovered on %1: the process that wrote did not record "
                                    "the outcome (it ended or lost the answer); read back from "
                                    "the broker")
                         .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
        if (auto updated = journal.update(entry); !updated)
            return updated.error();
        recovered.append(entry);
    }
    return recovered;
}

} // namespace groupscope::offsets
