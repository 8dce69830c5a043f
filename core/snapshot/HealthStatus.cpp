#include "snapshot/HealthStatus.h"

namespace groupscope::lag {

QString partitionStatusName(PartitionStatus status) {
    switch (status) {
    case PartitionStatus::Ok:
        return QStringLiteral("OK");
    case PartitionStatus::Warning:
        return QStringLiteral("WARN");
    case PartitionStatus::Stop:
        return QStringLiteral("STOP");
    case PartitionStatus::Stall:
        return QStringLiteral("STALL");
    case PartitionStatus::Rewind:
        return QStringLiteral("REWIND");
    }
    return QStringLiteral("OK");
}

QString groupStatusName(GroupStatus status) {
    switch (status) {
    case GroupStatus::NotFound:
        return QStringLiteral("NOTFOUND");
    case GroupStatus::Ok:
        return QStringLiteral("OK");
    case GroupStatus::Warning:
        return QStringLiteral("WARN");
    case GroupStatus::Error:
        return QStringLiteral("ERR");
    }
    return QStringLiteral("NOTFOUND");
}

} // namespace groupscope::lag
