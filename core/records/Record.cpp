#include "records/Record.h"

namespace groupscope::records {

QString timestampTypeName(TimestampType type) {
    switch (type) {
    case TimestampType::CreateTime:
        return QStringLiteral("CreateTime");
    case TimestampType::LogAppendTime:
        return QStringLiteral("LogAppendTime");
    case TimestampType::None:
        break;
    }
    return QStringLiteral("NoTimestampType");
}

qsizetype Record::sizeBytes() const {
    qsizetype size = keySize + valueSize;
    for (const auto& [name, value] : headers)
        size += name.toUtf8().size() + value.size();
    return size;
}

} // namespace groupscope::records
