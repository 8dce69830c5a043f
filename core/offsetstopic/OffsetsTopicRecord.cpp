#include "offsetstopic/OffsetsTopicRecord.h"

#include <climits>
#include <cstdlib>

namespace groupscope::offsetstopic {

QString OffsetsTopicDecodeError::toString() const {
    QString where = structure;
    if (!field.isEmpty())
        where += QStringLiteral(" field '%1'").arg(field);
    return QStringLiteral("%1 at %2 byte %3: %4").arg(where, part).arg(byteOffset).arg(reason);
}

int32_t offsetsTopicPartitionOf(const QString& groupId, int partitionCount) {
    if (partitionCount <= 0)
        return 0;
    uint32_t hash = 0; // Java's int arithmetic wraps; unsigned arithmetic wraps the same way
    for (const QChar unit : groupId)
        hash = 31 * hash + unit.unicode();
    const int32_t signedHash = int32_t(hash);
    // Utils.abs maps Integer.MIN_VALUE to 0 where Math.abs would leave it negative.
    const int32_t absolute = signedHash == INT32_MIN ? 0 : std::abs(signedHash);
    return absolute % partitionCount;
}

} // namespace groupscope::offsetstopic
