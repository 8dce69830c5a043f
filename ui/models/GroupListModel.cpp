#include "models/GroupListModel.h"

#include "lag/DurationText.h"
#include "models/HealthText.h"

#include <QColor>
#include <QLocale>
#include <QSet>

#include <algorithm>

namespace groupscope::ui {

using kafka::GroupState;

namespace {

// Sorting by state puts healthy groups first and the ones that need a look last.
int stateRank(GroupState state) {
    switch (state) {
    case GroupState::Stable:
        return 0;
    case GroupState::Empty:
        return 1;
    case GroupState::CompletingRebalance:
    case GroupState::Reconciling:
        return 2;
    case GroupState::PreparingRebalance:
    case GroupState::Assigning:
    case GroupState::NotReady:
        return 3;
    case GroupState::Dead:
        return 4;
    case GroupState::Unknown:
        break;
    }
    return 5;
}

bool isNumeric(int column) {
    return column == GroupListModel::MembersColumn || column == GroupListModel::TopicsColumn ||
           column == GroupListModel::TotalLagColumn || column == GroupListModel::TimeLagColumn;
}

// Unknown time lags sort below every known one, lower bounds as their bound.
double timeLagSortKey(const lag::TimeLag& timeLag) {
    switch (timeLag.status) {
    case lag::TimeLag::Status::CaughtUp:
        return 0;
    case lag::TimeLag::Status::Estimated:
    case lag::TimeLag::Status::AtLeast:
        return timeLag.seconds;
    case lag::TimeLag::Status::Unknown:
        break;
    }
    return -1;
}

// Verdicts sort by how much they need a look: not yet judged first, errors last.
qlonglong healthRank(lag::GroupStatus status) {
    switch (status) {
    case lag::GroupStatus::NotFound:
        return 0;
    case lag::GroupStatus::Ok:
        return 1;
    case lag::GroupStatus::Warning:
        return 2;
    case lag::GroupStatus::Error:
        return 3;
    }
    return 0;
}

// What the health tooltip says about rebalances, to the second it shows.
bool sameRebalance(const lag::RebalanceHealth& a, const lag::RebalanceHealth& b) {
    return a.rebalancesLast10Min == b.rebalancesLast10Min &&
           qRound(a.longestRebalanceSeconds) == qRound(b.longestRebalanceSeconds) &&
           a.rebalancing == b.rebalancing &&
           qRound(a.currentRebalanceSeconds) == qRound(b.currentRebalanceSeconds) &&
           a.stuckRebalance == b.stuckRebalance && a.rebalanceStorm == b.rebalanceStorm &&
           a.stuckAfterSeconds == b.stuckAfterSeconds && a.joinedMembers == b.joinedMembers &&
           a.leftMembers == b.leftMembers && a.timedOutMembers == b.timedOutMembers;
}

} // namespace

GroupListModel::Row GroupListModel::Row::from(const monitor::GroupSnapshot& group) {
    Row row;
    row.groupId = group.groupId();
    row.state = group.description.state;
    row.type = group.description.type;
    row.memberCount = int(group.description.members.size());
    row.topics = group.topics();
    row.protocolType = group.description.protocolType;
    row.assignor = group.description.partitionAssignor;
    const bool anyLag =
        std::any_of(group.partitions.cbegin(), group.partitions.cend(),
                    [](const auto& partition) { return partition.lag.has_value(); });
    if (anyLag)
        row.totalLag = group.totalLag();
    if (group.error)
        row.error = group.error.toString();
    row.timeLag = group.trend.maxTimeLag;
    row.health = group.trend.health;
    row.healthReason = group.trend.healthReason;
    row.rebalance = group.trend.rebalance;
    row.lagTrend = group.trend.recentTotalLag;
    return row;
}

bool GroupListModel::Row::sameCell(const Row& other, int column) const {
    switch (column) {
    case WatchColumn:
        return true; // not from the snapshot: setWatchedGroups() signals its changes
    case GroupColumn:
        return groupId == other.groupId;
    case StateColumn:
        return state == other.state && error == other.error;
    case TypeColumn:
        return type == other.type;
    case MembersColumn:
        return memberCount == other.memberCount;
    case TopicsColumn:
        return topics == other.topics;
    case TotalLagColumn:
        return totalLag == other.totalLag;
    case TimeLagColumn:
        // What the cell shows: a change below its resolution is no change.
        return lag::timeLagText(timeLag) == lag::timeLagText(other.timeLag);
    case HealthColumn:
        return health == other.health && healthReason == other.healthReason &&
               sameRebalance(rebalance, other.rebalance);
    case LagTrendColumn:
        return lagTrend == other.lagTrend;
    case ProtocolColumn:
        return protocolType == other.protocolType && assignor == other.assignor;
    }
    return true;
}

QString GroupListModel::protocolText(const Row& row) {
    // A simple group only stores offsets: it has neither protocol nor assignor.
    if (row.protocolType.isEmpty())
        return row.assignor.isEmpty() ? tr("simple (offsets only)") : row.assignor;
    return row.assignor.isEmpty() ? row.protocolType
                                  : QStringLiteral("%1 · %2").arg(row.protocolType, row.assignor);
}

GroupListModel::GroupListModel(QObject* parent)
    : QAbstractTableModel(parent) {}

int GroupListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GroupListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == WatchColumn)
            return QVariant(Qt::AlignCenter);
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case WatchedRole:
        return m_watched.contains(row.groupId);
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case GroupIdRole:
        return row.groupId;
    case StateRole:
        return int(row.state);
    case TopicsRole:
        return row.topics;
    case LagTrendRole:
        return QVariant::fromValue(row.lagTrend);
    case Qt::ForegroundRole:
        if (index.column() == HealthColumn && row.health == lag::GroupStatus::Error)
            return QColor(0xd3, 0x2f, 0x2f);
        if (index.column() == HealthColumn && row.health == lag::GroupStatus::Warning)
            return QColor(0xe0, 0x8a, 0x00);
        return {};
    }
    return {};
}

QVariant GroupListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && section == WatchColumn)
        return tr("Watched for alerts: click a star, or press Space or Ctrl+D on a group");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WatchColumn:
        return QStringLiteral("★");
    case GroupColumn:
        return tr("Group");
    case StateColumn:
        return tr("State");
    case TypeColumn:
        return tr("Type");
    case MembersColumn:
        return tr("Members");
    case TopicsColumn:
        return tr("Topics");
    case TotalLagColumn:
        return tr("Total lag");
    case TimeLagColumn:
        return tr("Time lag");
    case HealthColumn:
        return tr("Health");
    case LagTrendColumn:
        return tr("Lag trend");
    case ProtocolColumn:
        return tr("Protocol / assignor");
    }
    return {};
}

QVariant GroupListModel::displayValue(const Row& row, int column) const {
    switch (column) {
    case WatchColumn:
        return m_watched.contains(row.groupId) ? QStringLiteral("★") : QStringLiteral("☆");
    case GroupColumn:
        return row.groupId;
    case StateColumn:
        return row.error.isEmpty() ? kafka::groupStateName(row.state) : tr("Error");
    case TypeColumn:
        return row.type == kafka::GroupType::Unknown ? QStringLiteral("\u2013")
                                                     : kafka::groupTypeName(row.type);
    case MembersColumn:
        return row.memberCount;
    case TopicsColumn:
        return int(row.topics.size());
    case TotalLagColumn:
        // No commit means no lag to speak of, which is not the same as a lag of zero.
        return row.totalLag ? QLocale().toString(qlonglong(*row.totalLag))
                            : QStringLiteral("\u2013");
    case TimeLagColumn:
        return lag::timeLagText(row.timeLag);
    case HealthColumn:
        return row.health == lag::GroupStatus::NotFound ? QStringLiteral("\u2013")
                                                        : lag::groupStatusName(row.health);
    case LagTrendColumn:
        return {}; // drawn by the sparkline delegate
    case ProtocolColumn:
        return protocolText(row);
    }
    return {};
}

QVariant GroupListModel::sortValue(const Row& row, int column) const {
    switch (column) {
    case WatchColumn:
        return qlonglong(m_watched.contains(row.groupId) ? 1 : 0);
    case GroupColumn:
        return row.groupId;
    case StateColumn:
        return qlonglong(row.error.isEmpty() ? stateRank(row.state)
                                             : stateRank(GroupState::Unknown) + 1);
    case TypeColumn:
        return kafka::groupTypeName(row.type);
    case MembersColumn:
        return qlonglong(row.memberCount);
    case TopicsColumn:
        return qlonglong(row.topics.size());
    case TotalLagColumn:
        return qlonglong(row.totalLag.value_or(-1));
    case TimeLagColumn:
        return timeLagSortKey(row.timeLag);
    case HealthColumn:
        return healthRank(row.health);
    case LagTrendColumn:
        // Growing lag first when sorted descending: the newest minus the oldest sample.
        return row.lagTrend.size() < 2 ? qlonglong(0)
                                       : qlonglong(row.lagTrend.last() - row.lagTrend.first());
    case ProtocolColumn:
        return protocolText(row);
    }
    return {};
}

QString GroupListModel::toolTip(const Row& row, int column) const {
    switch (column) {
    case WatchColumn:
        return m_watched.contains(row.groupId)
                   ? tr("Watched: its alerts go to the Alerts panel and the desktop (Space to "
                        "stop watching)")
                   : tr("Not watched (Space or a click on the star watches it for alerts)");
    case StateColumn:
        if (!row.error.isEmpty())
            return row.error;
        if (row.state == GroupState::Unknown && row.type == kafka::GroupType::Consumer)
            return tr("Kafka reports a state librdkafka does not know: a consumer-protocol "
                      "group is Assigning or Reconciling while its assignment changes");
        return {};
    case TypeColumn:
        switch (row.type) {
        case kafka::GroupType::Classic:
            return tr("The classic rebalance protocol (JoinGroup/SyncGroup): every member "
                      "stops at each rebalance, or only the moved partitions if cooperative");
        case kafka::GroupType::Consumer:
            return tr("The consumer protocol (KIP-848, group.protocol=consumer): the "
                      "coordinator assigns, members reconcile one partition at a time");
        case kafka::GroupType::Share:
            return tr("A share group (KIP-932, queues): members share partitions and "
                      "acknowledge each record; its position is a start offset per partition");
        case kafka::GroupType::Streams:
            return tr("A streams group (KIP-1071): a Kafka Streams application whose members "
                      "run tasks the coordinator assigns");
        case kafka::GroupType::Unknown:
            break;
        }
        return tr("Not reported: Kafka before 3.8 has only classic groups");
    case TopicsColumn:
        return row.topics.join(QLatin1Char('\n'));
    case TotalLagColumn:
        return row.totalLag ? QString() : tr("No committed offsets");
    case TimeLagColumn:
        return row.timeLag.status == lag::TimeLag::Status::Unknown
                   ? tr("Not known yet: it needs a few refreshes of the log end offsets")
                   : tr("How long ago the log end was at the committed offset (the worst "
                        "partition)");
    case HealthColumn:
        // Why the verdict first (its first line), then the rebalances behind it.
        return healthToolTip(row.health, row.healthReason, row.rebalance);
    case LagTrendColumn:
        return row.lagTrend.isEmpty()
                   ? QString()
                   : tr("Total lag over the last %n refreshes", nullptr, int(row.lagTrend.size()));
    }
    return {};
}

int GroupListModel::rowOf(const QString& groupId) const {
    const auto found =
        std::lower_bound(m_rows.cbegin(), m_rows.cend(), groupId,
                         [](const Row& row, const QString& id) { return row.groupId < id; });
    return found != m_rows.cend() && found->groupId == groupId ? int(found - m_rows.cbegin()) : -1;
}

void GroupListModel::applySnapshot(const monitor::ClusterSnapshot& snapshot) {
    QList<Row> fresh;
    fresh.reserve(snapshot.groups.size());
    for (const monitor::GroupSnapshot& group : snapshot.groups)
        if (group.exists())
            fresh.append(Row::from(group));
    std::sort(fresh.begin(), fresh.end(),
              [](const Row& a, const Row& b) { return a.groupId < b.groupId; });
    QSet<QString> freshIds;
    for (const Row& row : fresh)
        freshIds.insert(row.groupId);

    // Vanished groups first, in contiguous runs from the back so row numbers stay valid.
    for (int last = int(m_rows.size()) - 1; last >= 0; --last) {
        if (freshIds.contains(m_rows.at(last).groupId))
            continue;
        int first = last;
        while (first > 0 && !freshIds.contains(m_rows.at(first - 1).groupId))
            --first;
        beginRemoveRows({}, first, last);
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
        last = first;
    }

    // What is left is an ordered subsequence of `fresh`: merge, inserting runs of new groups.
    int row = 0;
    for (qsizetype next = 0; next < fresh.size();) {
        if (row < m_rows.size() && m_rows.at(row).groupId == fresh.at(next).groupId) {
            updateRow(row++, fresh.at(next++));
            continue;
        }
        qsizetype end = next;
        while (end < fresh.size() &&
               (row >= m_rows.size() || fresh.at(end).groupId != m_rows.at(row).groupId))
            ++end;
        const int count = int(end - next);
        beginInsertRows({}, row, row + count - 1);
        m_rows.insert(row, count, Row());
        std::copy(fresh.cbegin() + next, fresh.cbegin() + end, m_rows.begin() + row);
        endInsertRows();
        row += count;
        next = end;
    }
}

void GroupListModel::setWatchedGroups(const QSet<QString>& groups) {
    if (groups == m_watched)
        return;
    const QSet<QString> before = std::exchange(m_watched, groups);
    for (int row = 0; row < m_rows.size(); ++row) {
        const QString& id = m_rows.at(row).groupId;
        if (before.contains(id) != m_watched.contains(id))
            emit dataChanged(index(row, WatchColumn), index(row, WatchColumn));
    }
}

void GroupListModel::updateRow(int row, const Row& fresh) {
    bool changed[ColumnCount];
    for (int column = 0; column < ColumnCount; ++column)
        changed[column] = !m_rows.at(row).sameCell(fresh, column);
    m_rows[row] = fresh; // before the signals, so slots already read the new values
    // One dataChanged per run of adjacent changed cells: unchanged cells stay untouched.
    for (int first = 0; first < ColumnCount; ++first) {
        if (!changed[first])
            continue;
        int last = first;
        while (last + 1 < ColumnCount && changed[last + 1])
            ++last;
        emit dataChanged(index(row, first), index(row, last));
        first = last;
    }
}

} // namespace groupscope::ui
