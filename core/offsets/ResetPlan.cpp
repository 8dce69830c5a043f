#include "offsets/ResetPlan.h"

namespace groupscope::offsets {

int ResetPlan::errorCount() const {
    return int(std::count_if(rows.cbegin(), rows.cend(),
                             [](const PlanRow& row) { return !row.error.isEmpty(); }));
}

QStringList ResetPlan::groups() const {
    QStringList ids;
    for (const PlanRow& row : rows)
        if (!ids.contains(row.groupId))
            ids.append(row.groupId);
    return ids;
}

QList<PlanRow> ResetPlan::rowsOf(const QString& groupId) const {
    QList<PlanRow> selected;
    for (const PlanRow& row : rows)
        if (row.groupId == groupId)
            selected.append(row);
    return selected;
}

int64_t ResetPlan::messagesReplayed() const {
    int64_t total = 0;
    for (const PlanRow& row : rows)
        if (const auto delta = row.delta(); delta && *delta < 0)
            total -= *delta;
    return total;
}

int64_t ResetPlan::messagesSkipped() const {
    int64_t total = 0;
    for (const PlanRow& row : rows)
        if (const auto delta = row.delta(); delta && *delta > 0)
            total += *delta;
    return total;
}

} // namespace groupscope::offsets
