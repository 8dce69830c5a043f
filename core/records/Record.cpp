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

Record Record::fromMessage(const consumer::ConsumedMessage& message, qsizetype maxValueBytes) {
    Record record;
    record.offset = message.offset();
    record.timestampMs = message.timestamp();
    switch (message.timestampType()) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME:
        record.timestampType = TimestampType::CreateTime;
        break;
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME:
        record.timestampType = TimestampType::LogAppendTime;
        break;
    case RD_KAFKA_TIMESTAMP_NOT_AVAILABLE:
        break;
    }
    const QByteArrayView key = message.key();
    if (key.data())
        record.key = key.toByteArray();
    record.keySize = key.size();
    const QByteArrayView value = message.payload();
    record.valueSize = value.size();
    if (value.data())
        record.value = value.first(std::min(value.size(), maxValueBytes)).toByteArray();
    record.headers = message.headers();
    return record;
}

} // namespace groupscope::records
