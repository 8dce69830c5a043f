#include "monitor/SnapshotDiff.h"

#include <QTest>

using namespace groupscope;
using monitor::ChangeEvent;
using Kind = ChangeEvent::Kind;

namespace {

monitor::GroupSnapshot group(const QString& id, kafka::GroupState state, const QStringList& members,
                             const QList<QPair<int, QString>>& owners,
                             const QList<QPair<int, int64_t>>& commits) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = state;
    for (const QString& member : members) {
        kafka::MemberDescription described;
        described.memberId = member;
        described.clientId = member + QStringLiteral("-client");
        described.host = QStringLiteral("/10.0.0.1");
        snapshot.description.members.append(described);
    }
    QMap<int, monitor::PartitionSnapshot> rows;
    for (const auto& [partition, owner] : owners) {
        rows[partition].topicPartition = {QStringLiteral("orders"), partition};
        rows[partition].memberId = owner;
    }
    for (const auto& [partition, offset] : commits) {
        rows[partition].topicPartition = {QStringLiteral("orders"), partition};
        rows[partition].committedOffset = offset;
    }
    snapshot.partitions = rows.values();
    return snapshot;
}

QList<Kind> kinds(const QList<ChangeEvent>& events) {
    QList<Kind> result;
    for (const auto& event : events)
        result.append(event.kind);
    return result;
}

} // namespace

class TestSnapshotDiff : public QObject {
    Q_OBJECT
private slots:
    void identicalSnapshotsGiveNoEvents() {
        monitor::ClusterSnapshot snapshot;
        snapshot.groups = {group(QStringLiteral("g"), kafka::GroupState::Stable,
                                 {QStringLiteral("m1")}, {{0, QStringLiteral("m1")}}, {{0, 5}})};
        QVERIFY(monitor::diffSnapshots(snapshot, snapshot).isEmpty());
    }

    void rebalanceAndCommits() {
        monitor::ClusterSnapshot before, after;
        before.groups = {group(
            QStringLiteral("g"), kafka::GroupState::Stable, {QStringLiteral("m1")},
            {{0, QStringLiteral("m1")}, {1, QStringLiteral("m1")}}, {{0, 5}, {1, 7}, {2, 1}})};
        after.groups = {group(QStringLiteral("g"), kafka::GroupState::PreparingRebalance,
                              {QStringLiteral("m1"), QStringLiteral("m2")},
                              {{0, QStringLiteral("m1")}, {1, QStringLiteral("m2")}},
                              {{0, 9}, {1, 7}, {3, 0}})};
        const auto events = monitor::diffSnapshots(before, after);
        QCOMPARE(kinds(events),
                 (QList<Kind>{Kind::StateChanged, Kind::MemberJoined, Kind::AssignmentChanged,
                              Kind::CommitMoved, Kind::CommitDeleted, Kind::CommitAppeared}));
        QCOMPARE(events[0].describe(), QStringLiteral("group g: Stable -> PreparingRebalance"));
        QCOMPARE(events[1].member, QStringLiteral("m2"));
        QCOMPARE(events[2].describe(), QStringLiteral("group g: orders:1 moved from m1 to m2"));
        QCOMPARE(events[3].describe(), QStringLiteral("group g: orders:0 committed 5 -> 9"));
        QCOMPARE(events[4].topicPartition.partition, 2);
        QCOMPARE(events[5].after, QStringLiteral("0"));
    }

    void groupsAppearAndDisappear() {
        monitor::ClusterSnapshot before, after;
        before.groups = {group(QStringLiteral("old"), kafka::GroupState::Empty, {}, {}, {{0, 1}})};
        after.groups = {group(QStringLiteral("new"), kafka::GroupState::Stable,
                              {QStringLiteral("m")}, {{0, QStringLiteral("m")}}, {})};
        const auto events = monitor::diffSnapshots(before, after);
        QCOMPARE(kinds(events),
                 (QList<Kind>{Kind::GroupAppeared, Kind::MemberJoined, Kind::GroupDisappeared}));
        QCOMPARE(events[0].groupId, QStringLiteral("new"));
        QCOMPARE(events[2].groupId, QStringLiteral("old"));
    }

    void memberLeavesAndPartitionIsOrphaned() {
        monitor::ClusterSnapshot before, after;
        before.groups = {group(QStringLiteral("g"), kafka::GroupState::Stable,
                               {QStringLiteral("m1")}, {{0, QStringLiteral("m1")}}, {{0, 3}})};
        after.groups = {group(QStringLiteral("g"), kafka::GroupState::Empty, {}, {}, {{0, 3}})};
        const auto events = monitor::diffSnapshots(before, after);
        QCOMPARE(kinds(events),
                 (QList<Kind>{Kind::StateChanged, Kind::MemberLeft, Kind::AssignmentChanged}));
        QCOMPARE(events[2].describe(), QStringLiteral("group g: orders:0 moved from m1 to nobody"));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotDiff)
#include "TestSnapshotDiff.moc"
