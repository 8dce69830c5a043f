#pragma once
// One record of a partition as the Records tab and `groupscope-cli records` show it: a copy
// made on the way out of the consumer, bounded in size, so a window of records can be kept
// while the consumer goes on fetching.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <cstdint>

namespace groupscope::records {

enum class TimestampType { None, CreateTime, LogAppendTime };

// "CreateTime", "LogAppendTime", "NoTimestampType" (the names Kafka's console consumer prints).
QString timestampTypeName(TimestampType type);

struct Record {
    int64_t offset = -1;
    int64_t timestampMs = -1; // -1: the record has none
    TimestampType timestampType = TimestampType::None;
    QByteArray key;   // null when the record has no key
    QByteArray value; // null when the record has no value (a tombstone); cut at maxValueBytes
    qsizetype keySize = 0;
    qsizetype valueSize = 0; // the whole value's size, also when `value` holds less
    QList<QPair<QString, QByteArray>> headers;

    bool valueCut() const { return value.size() < valueSize; }
    // Key, value and headers: what the record weighs on the wire, roughly.
    qsizetype sizeBytes() const;
};

} // namespace groupscope::records
