#include "offsets/OffsetsCsv.h"

#include "offsets/ResetSpec.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <limits>
#include <variant>

namespace groupscope::offsets {

using kafka::KafkaError;

namespace {

// Splits one CSV line into fields. Fields may be double-quoted, with "" for a quote inside,
// because Kafka's own export quotes some values (its CSV writer quotes every value longer
// than 24 characters). Returns an error message naming the column, or the fields.
std::variant<QStringList, QPair<int, QString>> splitCsvLine(const QString& line) {
    QStringList fields;
    qsizetype position = 0;
    for (;;) {
        const int column = int(fields.size()) + 1;
        QString field;
        if (position < line.size() && line[position] == u'"') {
            ++position;
            for (;;) {
                if (position >= line.size())
                    return qMakePair(column, QStringLiteral("unterminated quote"));
                if (line[position] == u'"') {
                    if (position + 1 < line.size() && line[position + 1] == u'"') {
                        field += u'"';
                        position += 2;
                        continue;
                    }
                    ++position;
                    break;
                }
                field += line[position++];
            }
            if (position < line.size() && line[position] != u',')
                return qMakePair(column, QStringLiteral("text after the closing quote"));
        } else {
            const qsizetype comma = line.indexOf(u',', position);
            field = line.mid(position, comma < 0 ? -1 : comma - position);
            if (field.contains(u'"'))
                return qMakePair(column, QStringLiteral("a quote inside an unquoted value"));
            if (field != field.trimmed())
                return qMakePair(column,
                                 QStringLiteral("spaces around \"%1\"").arg(field.trimmed()));
            position = comma < 0 ? line.size() : comma;
        }
        fields.append(field);
        if (position >= line.size())
            return fields;
        ++position; // the comma
    }
}

// Quotes a value exactly where Kafka's own export does, so our --export is byte for byte
// Kafka's. Kafka writes with Jackson's CSV encoder (2.16, checked against the tool's
// output), which quotes every value longer than 24 characters and every value with a
// character below '-' (space, '"', '#', '+', ','...); a quote inside is doubled. Anything
// our reader would not read back as it is is quoted too: a leading U+FEFF, and surrounding
// white space beyond ASCII's (U+00A0, U+3000...), which Jackson's rule does not see.
QByteArray csvField(const QString& value) {
    constexpr qsizetype jacksonMaxUnquotedLength = 24;
    bool quote = value.size() > jacksonMaxUnquotedLength || value.startsWith(QChar(0xFEFF)) ||
                 value != value.trimmed();
    for (qsizetype i = 0; !quote && i < value.size(); ++i)
        quote = value[i].unicode() < u'-';
    if (!quote)
        return value.toUtf8();
    QString quoted = value;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return '"' + quoted.toUtf8() + '"';
}

} // namespace

bool OffsetsCsv::isValidTopicName(const QString& name) {
    static const QRegularExpression legal(QStringLiteral("^[a-zA-Z0-9._-]{1,249}$"));
    return legal.match(name).hasMatch() && name != u"." && name != u"..";
}

kafka::Result<QList<OffsetsCsvRow>> OffsetsCsv::readFile(const QString& path,
                                                         const QStringList& expectedGroups) {
    const QFileInfo info(path);
    if (!info.exists())
        return KafkaError::invalidArgument(QStringLiteral("%1: no such file").arg(path));
    if (info.size() > maximumFileBytes)
        return KafkaError::invalidArgument(
            QStringLiteral("%1: the file is %2 MiB; offsets files over %3 MiB are refused")
                .arg(path)
                .arg(double(info.size()) / (1024 * 1024), 0, 'f', 1)
                .arg(maximumFileBytes / (1024 * 1024)));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return KafkaError::invalidArgument(QStringLiteral("%1: %2").arg(path, file.errorString()));
    return parse(file.readAll(), path, expectedGroups);
}

kafka::Result<QList<OffsetsCsvRow>> OffsetsCsv::parse(const QByteArray& raw,
                                                      const QString& sourceName,
                                                      const QStringList& expectedGroups) {
    QByteArray content = raw;
    if (content.startsWith("\xEF\xBB\xBF"))
        content.remove(0, 3);
    auto failure = [&](int line, int column, const QString& message) {
        return KafkaError::invalidArgument(
            column > 0 ? QStringLiteral("%1:%2: column %3: %4")
                             .arg(sourceName)
                             .arg(line)
                             .arg(column)
                             .arg(message)
                       : QStringLiteral("%1:%2: %3").arg(sourceName).arg(line).arg(message));
    };
    QList<QByteArray> lines = content.split('\n');
    // The newline that ends the last row, and the empty line Kafka's --export prints after
    // its rows (it println()s text that already ends in a newline).
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    if (lines.size() >= 2 && (lines.last().isEmpty() || lines.last() == "\r"))
        lines.removeLast();

    QList<OffsetsCsvRow> rows;
    QHash<QString, int> firstLineOfKey; // "group/topic/partition" -> line, to find duplicates
    qsizetype columnCount = 0;
    for (qsizetype index = 0; index < lines.size(); ++index) {
        const int lineNumber = int(index) + 1;
        QByteArray bytes = lines[index];
        if (bytes.endsWith('\r'))
            bytes.chop(1);
        if (bytes.isEmpty())
            return failure(lineNumber, 0, QStringLiteral("empty line"));
        const QString line = QString::fromUtf8(bytes);
        if (line.contains(QChar::ReplacementCharacter))
            return failure(lineNumber, 0, QStringLiteral("not valid UTF-8"));
        const auto split = splitCsvLine(line);
        if (const auto* problem = std::get_if<QPair<int, QString>>(&split))
            return failure(lineNumber, problem->first, problem->second);
        const QStringList& fields = std::get<QStringList>(split);
        if (fields.size() != 3 && fields.size() != 4)
            return failure(lineNumber, 0,
                           QStringLiteral("expected 3 columns (topic,partition,offset) or 4 "
                                          "(group,topic,partition,offset), found %1")
                               .arg(fields.size()));
        if (columnCount == 0)
            columnCount = fields.size();
        else if (fields.size() != columnCount)
            return failure(lineNumber, 0,
                           QStringLiteral("has %1 columns but line 1 has %2")
                               .arg(fields.size())
                               .arg(columnCount));

        OffsetsCsvRow row;
        row.line = lineNumber;
        const int first = fields.size() == 4 ? 1 : 0;
        if (fields.size() == 4) {
            row.groupId = fields[0];
            if (row.groupId.isEmpty())
                return failure(lineNumber, 1, QStringLiteral("empty group id"));
            if (!expectedGroups.isEmpty() && !expectedGroups.contains(row.groupId))
                return failure(
                    lineNumber, 1,
                    QStringLiteral("row for group '%1', but the groups being reset are: %2")
                        .arg(row.groupId, expectedGroups.join(QStringLiteral(", "))));
        } else if (expectedGroups.size() > 1) {
            return failure(
                lineNumber, 0,
                QStringLiteral("3-column rows name no group, but %1 groups are being reset: use "
                               "group,topic,partition,offset")
                    .arg(expectedGroups.size()));
        } else if (expectedGroups.size() == 1) {
            row.groupId = expectedGroups.first();
        }
        const QString& topic = fields[first];
        if (!isValidTopicName(topic))
            return failure(lineNumber, first + 1,
                           QStringLiteral("\"%1\" is not a valid topic name").arg(topic.left(60)));
        auto partition = parseInt64(fields[first + 1], QStringLiteral("partition"));
        if (!partition)
            return failure(lineNumber, first + 2, partition.error().message);
        if (partition.value() < 0 || partition.value() > std::numeric_limits<int32_t>::max())
            return failure(lineNumber, first + 2,
                           QStringLiteral("partition %1 is out of range (0 to 2147483647)")
                               .arg(fields[first + 1]));
        auto offset = parseInt64(fields[first + 2], QStringLiteral("offset"));
        if (!offset)
            return failure(lineNumber, first + 3, offset.error().message);
        if (offset.value() < 0)
            return failure(lineNumber, first + 3,
                           QStringLiteral("offset %1 is negative").arg(fields[first + 2]));
        row.topicPartition = {topic, int32_t(partition.value())};
        row.offset = offset.value();

        const QString key = row.groupId + u'\n' + row.topicPartition.toString();
        if (const auto seen = firstLineOfKey.constFind(key); seen != firstLineOfKey.cend())
            return failure(lineNumber, 0,
                           QStringLiteral("duplicate row for %1%2 (first on line %3)")
                               .arg(row.groupId.isEmpty()
                                        ? QString()
                                        : QStringLiteral("group '%1' ").arg(row.groupId),
                                    row.topicPartition.toString())
                               .arg(*seen));
        firstLineOfKey.insert(key, lineNumber);
        rows.append(std::move(row));
    }
    if (rows.isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("%1: the file has no rows").arg(sourceName));
    return rows;
}

QByteArray OffsetsCsv::write(const QList<OffsetsCsvRow>& rows, bool withGroup) {
    QByteArray out;
    for (const OffsetsCsvRow& row : rows) {
        if (withGroup)
            out += csvField(row.groupId) + ',';
        out += csvField(row.topicPartition.topic) + ',' +
               QByteArray::number(row.topicPartition.partition) + ',' +
               QByteArray::number(qint64(row.offset)) + '\n';
    }
    return out;
}

} // namespace groupscope::offsets
