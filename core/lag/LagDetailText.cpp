#include "lag/LagDetailText.h"

#include "lag/DurationText.h"

#include <algorithm>

namespace groupscope::lag {

QString effectiveLagText(const LagDetail& detail, bool hasCommit) {
    if (!hasCommit)
        return QStringLiteral("no commit");
    return detail.effectiveLag ? QString::number(*detail.effectiveLag) : QStringLiteral("–");
}

std::optional<int64_t> oldestRecordAgeMs(const LagDetail& detail, int64_t nowMs) {
    if (!detail.hasOldestRecordTime())
        return std::nullopt;
    return std::max<int64_t>(0, nowMs - detail.oldestRecordTimestampMs);
}

QString oldestRecordText(const LagDetail& detail, int64_t nowMs) {
    switch (detail.oldestRecord) {
    case LagDetail::OldestRecord::Exact:
        return QStringLiteral("%1 old (exact)")
            .arg(durationText(double(*oldestRecordAgeMs(detail, nowMs)) / 1000.0));
    case LagDetail::OldestRecord::BatchTime:
        return QStringLiteral("%1 old (batch time)")
            .arg(durationText(double(*oldestRecordAgeMs(detail, nowMs)) / 1000.0));
    case LagDetail::OldestRecord::NoTimestamp:
        return QStringLiteral("no timestamp");
    case LagDetail::OldestRecord::HeldBack:
        return QStringLiteral("in an open transaction");
    case LagDetail::OldestRecord::NotNeeded:
        return detail.effectiveLag ? QStringLiteral("caught up") : QStringLiteral("–");
    case LagDetail::OldestRecord::NotRead:
        break;
    }
    return QStringLiteral("–");
}

QString oldestRecordStatusName(LagDetail::OldestRecord status) {
    switch (status) {
    case LagDetail::OldestRecord::Exact:
        return QStringLiteral("exact");
    case LagDetail::OldestRecord::BatchTime:
        return QStringLiteral("batchTime");
    case LagDetail::OldestRecord::NoTimestamp:
        return QStringLiteral("noTimestamp");
    case LagDetail::OldestRecord::HeldBack:
        return QStringLiteral("heldBack");
    case LagDetail::OldestRecord::NotRead:
        return QStringLiteral("notRead");
    case LagDetail::OldestRecord::NotNeeded:
        break;
    }
    return QStringLiteral("notNeeded");
}

QString withoutCommitText(int partitions) {
    if (partitions <= 0)
        return {};
    return partitions == 1 ? QStringLiteral("1 partition without a commit")
                           : QStringLiteral("%1 partitions without a commit").arg(partitions);
}

} // namespace groupscope::lag
