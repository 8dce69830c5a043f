#include "offsetstopic/OffsetsTopicRecord.h"

namespace groupscope::offsetstopic {

QString OffsetsTopicDecodeError::toString() const {
    QString where = structure;
    if (!field.isEmpty())
        where += QStringLiteral(" field '%1'").arg(field);
    return QStringLiteral("%1 at %2 byte %3: %4").arg(where, part).arg(byteOffset).arg(reason);
}

} // namespace groupscope::offsetstopic
