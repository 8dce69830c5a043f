#pragma once

#include "kafka/AdminClient.h"
#include "offsets/WriteJournal.h"

#include <QSet>

#include <QDateTime>

#include <atomic>
#include <chrono>

namespace groupscope::offsets {

// A commit to a group's offset that a write would race with.
struct RecentCommit {
    kafka::TopicPartition topicPartition;
    int64_t offset = -1;
    int64_t committedAtMs = -1; // the coordinator's commit timestamp, ms since the epoch
};

// What the look for recent commits found, and how it looked.
struct RecentCommitReport {
    QList<RecentCommit> commits; // younger than `threshold`, newest first per partition
    std::chrono::milliseconds threshold{0};
    // "the offsets topic" (each commit with its time), or "two reads of the committed
    // offsets N ms apart" where that topic cannot be read (then a commit that repeats the
    // same offset cannot be seen, and the reason is in `limitation`).
    QString method;
    QString limitation;

    bool isEmpty() const { return commits.isEmpty(); }
    // "orders:3 was committed 0.8 s ago (offset 2017); ... although the group has no
    // members: a consumer using assign() may still run"
    QString refusalText(const QString& groupId, int64_t nowMs) const;
};

// Finds commits to a group that has no members: Kafka accepts offset commits from
// consumers that use assign() (and so never join), such a group always looks Empty, and
// the next commit of such a consumer silently overwrites a reset. Reads the group's
// partition of `__consumer_offsets` for the last `history` (every commit with its
// timestamp, repeats of the same offset included); where that topic cannot be read, reads
// the committed offsets twice `fallbackInterval` apart. A commit counts when it is younger
// than the threshold: `minimumThreshold`, or twice the group's observed commit interval
// when that is longer (capped at `history`). Commits at or before `ignoreBeforeMs` do not
// count (the last commits of members that just left an armed group).
class RecentCommits {
public:
    struct Options {
        std::chrono::milliseconds minimumThreshold{5000};
        std::chrono::milliseconds history{30'000};
        std::chrono::milliseconds fallbackInterval{2000};
        int64_t ignoreBeforeMs = -1;
        // Commits that are Groupscope's own writes (a reset a moment ago, its undo): the
        // offsets the journal says were written to each partition (ownWrites()).
        QSet<QPair<kafka::TopicPartition, int64_t>> ownWrites;
        const std::atomic<bool>* cancelled = nullptr;
    };

    // The offsets the journal's entries of the last `history` wrote to the group.
    static QSet<QPair<kafka::TopicPartition, int64_t>>
    ownWritesOf(WriteJournal& journal, const QString& groupId, std::chrono::milliseconds history);

    static kafka::Result<RecentCommitReport> find(kafka::AdminClient& admin, const QString& groupId,
                                                  const Options& options);

private:
    static kafka::Result<RecentCommitReport> fromOffsetsTopic(kafka::AdminClient& admin,
                                                              const QString& groupId,
                                                              const Options& options,
                                                              QString* unreadable);
    static kafka::Result<RecentCommitReport>
    fromTwoReads(kafka::AdminClient& admin, const QString& groupId, const Options& options);
};

} // namespace groupscope::offsets
