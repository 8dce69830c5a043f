#include "offsets/RecentCommits.h"

#include "monitor/OffsetsTopicStream.h"
#include "offsets/JournaledWrite.h"

#include <QThread>

#include <algorithm>

namespace groupscope::offsets {

using kafka::TopicPartition;
using namespace std::chrono;

namespace {

int64_t nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}

// The median gap between successive commits of one partition, over all partitions; 0 when
// no partition was committed twice.
int64_t observedCommitIntervalMs(const QHash<TopicPartition, QList<int64_t>>& times) {
    QList<int64_t> gaps;
    for (QList<int64_t> partitionTimes : times) {
        std::sort(partitionTimes.begin(), partitionTimes.end());
        for (qsizetype i = 1; i < partitionTimes.size(); ++i)
            gaps.append(partitionTimes[i] - partitionTimes[i - 1]);
    }
    if (gaps.isEmpty())
        return 0;
    std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
    return gaps[gaps.size() / 2];
}

// Sleeps up to `duration` in short steps; false when cancelled.
bool waitUnlessCancelled(milliseconds duration, const std::atomic<bool>* cancelled) {
    const auto until = steady_clock::now() + duration;
    while (steady_clock::now() < until) {
        if (cancelled && cancelled->load())
            return false;
        QThread::msleep(50);
    }
    return true;
}

} // namespace

QString RecentCommitReport::refusalText(const QString& groupId, int64_t now) const {
    QStringList parts;
    for (const RecentCommit& commit : commits)
        parts.append(
            QStringLiteral("%1 was committed %2 s ago (offset %3)")
                .arg(commit.topicPartition.toString())
                .arg(double(std::max<int64_t>(0, now - commit.committedAtMs)) / 1000.0, 0, 'f', 1)
                .arg(commit.offset));
    return QStringLiteral("group '%1' has no members, but %2: a consumer using assign() (which "
                          "never joins the group) may still run and would overwrite the change "
                          "with its next commit. Stop it first, or force the write.")
        .arg(groupId, parts.join(QStringLiteral("; ")));
}

QSet<QPair<TopicPartition, int64_t>>
RecentCommits::ownWritesOf(WriteJournal& journal, const QString& groupId, milliseconds history) {
    QSet<QPair<TopicPartition, int64_t>> written;
    JournalQuery query;
    query.groupId = groupId;
    query.limit = 50;
    auto entries = journal.entries(query);
    if (!entries)
        return written; // then every commit counts: safe, if stricter
    const QDateTime since = QDateTime::currentDateTimeUtc().addMSecs(-(history.count() + 10'000));
    for (const JournalEntry& entry : entries.value()) {
        if (entry.time < since)
            break; // newest first
        for (const JournalPartition& partition : entry.partitions)
            if (partition.planned && partition.error.isEmpty()) // not a refused write
                written.insert({partition.topicPartition, *partition.planned});
    }
    return written;
}

kafka::Result<RecentCommitReport>
RecentCommits::find(kafka::AdminClient& admin, const QString& groupId, const Options& options) {
    QString unreadable;
    auto fromTopic = fromOffsetsTopic(admin, groupId, options, &unreadable);
    if (fromTopic || unreadable.isEmpty()) // read, or cancelled
        return fromTopic;
    auto fromReads = fromTwoReads(admin, groupId, options);
    if (fromReads)
        fromReads.value().limitation =
            QStringLiteral("%1 could not be read (%2), so a consumer that commits the same "
                           "offset again cannot be seen")
                .arg(QString::fromLatin1(monitor::OffsetsTopicStream::internalTopic), unreadable);
    return fromReads;
}

kafka::Result<RecentCommitReport> RecentCommits::fromOffsetsTopic(kafka::AdminClient& admin,
                                                                  const QString& groupId,
                                                                  const Options& options,
                                                                  QString* unreadable) {
    monitor::OffsetsTopicStream::Options streamOptions;
    streamOptions.profile = admin.profile();
    streamOptions.groups = {groupId};
    streamOptions.onlyPartitionsOfGroups = true;
    streamOptions.history = options.history;
    streamOptions.requestTimeout = admin.timeout();
    streamOptions.retryInterval = hours(1); // one attempt: the fallback follows a failure
    monitor::OffsetsTopicStream stream(streamOptions);
    stream.start();
    const auto deadline = steady_clock::now() + 2 * admin.timeout();
    for (;;) {
        const auto status = stream.status();
        if (status.caughtUp)
            break;
        if (status.state == monitor::OffsetsTopicStream::State::Unreadable) {
            *unreadable = status.reason;
            return kafka::KafkaError::invalidArgument(status.reason);
        }
        if (options.cancelled && options.cancelled->load())
            return kafka::KafkaError::invalidArgument(QStringLiteral("interrupted"));
        if (steady_clock::now() > deadline) {
            *unreadable = QStringLiteral("it was not read to its end within %1 ms")
                              .arg(2 * admin.timeout().count());
            return kafka::KafkaError::invalidArgument(*unreadable);
        }
        stream.waitForRecords(milliseconds(50));
    }
    QHash<TopicPartition, QList<int64_t>> commitTimes;
    QHash<TopicPartition, RecentCommit> newest;
    for (const auto& record : stream.take()) {
        const auto* commit = std::get_if<offsetstopic::OffsetCommit>(&record.record);
        if (!commit || commit->group != groupId)
            continue;
        // Records come in the order the coordinator wrote them: a tombstone (the commit
        // deleted, the group deleted) ends what came before it.
        if (commit->isTombstone) {
            newest.remove(commit->topicPartition);
            continue;
        }
        commitTimes[commit->topicPartition].append(commit->commitTimestamp);
        RecentCommit& latest = newest[commit->topicPartition];
        if (commit->commitTimestamp >= latest.committedAtMs)
            latest = {commit->topicPartition, commit->offset, commit->commitTimestamp};
    }
    stream.stop();
    RecentCommitReport report;
    report.method = QStringLiteral("the offsets topic");
    report.threshold =
        std::clamp(milliseconds(2 * observedCommitIntervalMs(commitTimes)),
                   options.minimumThreshold, std::max(options.minimumThreshold, options.history));
    const int64_t now = nowMs();
    for (const RecentCommit& commit : newest)
        if (commit.committedAtMs > options.ignoreBeforeMs &&
            !options.ownWrites.contains({commit.topicPartition, commit.offset}) &&
            now - commit.committedAtMs < report.threshold.count())
            report.commits.append(commit);
    std::sort(report.commits.begin(), report.commits.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return report;
}

kafka::Result<RecentCommitReport> RecentCommits::fromTwoReads(kafka::AdminClient& admin,
                                                              const QString& groupId,
                                                              const Options& options) {
    auto before = JournaledWrite::readCommitted(admin, groupId);
    if (!before)
        return before.error();
    if (!waitUnlessCancelled(options.fallbackInterval, options.cancelled))
        return kafka::KafkaError::invalidArgument(QStringLiteral("interrupted"));
    auto after = JournaledWrite::readCommitted(admin, groupId);
    if (!after)
        return after.error();
    RecentCommitReport report;
    report.method = QStringLiteral("two reads of the committed offsets %1 ms apart")
                        .arg(options.fallbackInterval.count());
    report.threshold = options.fallbackInterval;
    const int64_t now = nowMs();
    for (auto it = after.value().cbegin(); it != after.value().cend(); ++it)
        if (before.value().value(it.key(), -2) != it.value() &&
            !options.ownWrites.contains({it.key(), it.value()}))
            report.commits.append({it.key(), it.value(), now});
    return report;
}

} // namespace groupscope::offsets
