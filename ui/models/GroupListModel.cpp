#include "models/GroupListModel.h"

#include "lag/DurationText.h"
#include "lag/LagDetailText.h"
#include "models/HealthText.h"

#include <QColor>
#include <QLocale>

#include <algorithm>
#include <bit>
#include <limits>

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

// A double as an integer that orders the same way. IEEE 754 doubles of one sign order as
// their bits read as integers, positive ones upwards, negative ones downwards: flipping a
// negative one's magnitude bits turns its order around.
qint64 orderedBits(double value) {
    const auto bits = std::bit_cast<qint64>(value);
    return bits < 0 ? bits ^ std::numeric_limits<qint64>::max() : bits;
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

bool GroupListModel::sameCell(const Row& shown, const Row& other, int column) const {
    switch (column) {
    case WatchColumn:
        return true; // not from the snapshot: setWatchedGroups() signals its changes
    case GroupColumn:
        return shown.groupId == other.groupId;
    case StateColumn:
        return shown.state == other.state && shown.error == other.error;
    case TypeColumn:
        return shown.type == other.type;
    case MembersColumn:
        return shown.memberCount == other.memberCount;
    case TopicsColumn:
        return shown.topics == other.topics;
    case TotalLagColumn:
        return shown.totalLag == other.totalLag && shown.withoutCommit == other.withoutCommit;
    case TimeLagColumn:
        // What the cell shows: a change below its resolution is no change.
        return shown.timeLagText == other.timeLagText;
    case HealthColumn:
        return shown.health == other.health && shown.healthReason == other.healthReason &&
               sameRebalance(shown.rebalance, other.rebalance);
    case LagTrendColumn:
        return shown.lagTrend == other.lagTrend;
    case ProtocolColumn:
        return shown.protocolType == other.protocolType && shown.assignor == other.assignor;
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
    : KeyedTableModel(parent) {}

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
        // Partitions without a commit are counted apart, never as a lag of 0.
        if (row.withoutCommit > 0)
            return tr("%1 (%2 without a commit)")
                .arg(row.totalLag ? QLocale().toString(qlonglong(*row.totalLag))
                                  : QStringLiteral("\u2013"))
                .arg(row.withoutCommit);
        return row.totalLag ? QLocale().toString(qlonglong(*row.totalLag))
                            : QStringLiteral("\u2013");
    case TimeLagColumn:
        return row.timeLagText;
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
    case GroupColumn:
        return row.groupId;
    case TypeColumn:
        return kafka::groupTypeName(row.type);
    case ProtocolColumn:
        return protocolText(row);
    case TimeLagColumn:
        return timeLagSortKey(row.timeLag);
    }
    return integerSortKey(row, column, m_watched.contains(row.groupId));
}

qlonglong GroupListModel::integerSortKey(const Row& row, int column, bool watched) {
    switch (column) {
    case WatchColumn:
        return watched ? 1 : 0;
    case StateColumn:
        return row.error.isEmpty() ? stateRank(row.state) : stateRank(GroupState::Unknown) + 1;
    case MembersColumn:
        return row.memberCount;
    case TopicsColumn:
        return row.topics.size();
    case TotalLagColumn:
        return row.totalLag.value_or(-1);
    case HealthColumn:
        return healthRank(row.health);
    case LagTrendColumn:
        // Growing lag first when sorted descending: the newest minus the oldest sample.
        return row.lagTrend.size() < 2 ? 0
                                       : qint64(row.lagTrend.last()) - qint64(row.lagTrend.first());
    }
    return 0;
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
        if (row.withoutCommit > 0)
            return tr("The sum over the partitions with a commit; %1 not counted")
                .arg(lag::withoutCommitText(row.withoutCommit));
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

int GroupListModel::compareText(const Row& left, const Row& right, int column) {
    switch (column) {
    case GroupColumn:
        return left.groupId.compare(right.groupId, Qt::CaseInsensitive);
    case TypeColumn:
        return kafka::groupTypeName(left.type).compare(kafka::groupTypeName(right.type),
                                                       Qt::CaseInsensitive);
    case ProtocolColumn:
        return protocolText(left).compare(protocolText(right), Qt::CaseInsensitive);
    }
    return 0;
}

bool GroupListModel::ordersByNumber(int column) {
    return column != GroupColumn && column != TypeColumn && column != ProtocolColumn;
}

qint64 GroupListModel::numberKey(const Row& row, int column, bool watched) {
    if (column == TimeLagColumn)
        return orderedBits(timeLagSortKey(row.timeLag));
    return integerSortKey(row, column, watched);
}

void GroupListModel::applySummaries(const QList<monitor::GroupSummary>& summaries) {
    applySharedRows(summaries, [](const Row& row) { return row.fingerprint; });
    emit refreshed();
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
    emit refreshed();
}

} // namespace groupscope::ui
