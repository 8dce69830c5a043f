#pragma once

#include "kafka/Result.h"
#include "kafka/TopicPartition.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace groupscope::offsets {

// One row of an offsets file in Kafka's formats: `topic,partition,offset` for one group,
// `group,topic,partition,offset` for several. No header line.
struct OffsetsCsvRow {
    QString groupId; // empty in the three-column format
    kafka::TopicPartition topicPartition;
    int64_t offset = 0;
    int line = 0; // 1-based line in the file, for messages
};

class OffsetsCsv {
public:
    // Files larger than this are refused before they are read: a reset of a million
    // partitions fits in far less, and reading gigabytes into a plan helps nobody.
    static constexpr qint64 maximumFileBytes = 16 * 1024 * 1024;

    // Strict reader: values may be double-quoted (Kafka's export quotes long ones); every line has
    // the same number of columns (3 or 4), names are valid Kafka topic names, partitions are int32
    // >= 0, offsets int64 >= 0, no duplicates. Tolerates CRLF line ends, a UTF-8 byte order mark
    // a final empty line (Kafka's --export prints one). Errors name the source, line and column.
    // `expectedGroups` (when not empty) is the set of groups being reset: rows of other groups are
    // errors; three-column rows belong to the single expected group.
    static kafka::Result<QList<OffsetsCsvRow>> parse(const QByteArray& content,
                                                     const QString& sourceName,
                                                     const QStringList& expectedGroups = {});
    static kafka::Result<QList<OffsetsCsvRow>> readFile(const QString& path,
                                                        const QStringList& expectedGroups = {});

    // Kafka's export, quoted as Kafka's writer quotes: three columns when `withGroup` is false.
    static QByteArray write(const QList<OffsetsCsvRow>& rows, bool withGroup);

    static bool isValidTopicName(const QString& name);
};

} // namespace groupscope::offsets
