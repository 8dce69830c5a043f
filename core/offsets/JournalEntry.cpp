#include "offsets/JournalEntry.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace groupscope::offsets {

using kafka::KafkaError;

namespace {

QJsonValue optionalOffset(const std::optional<int64_t>& offset) {
    return offset ? QJsonValue(qint64(*offset)) : QJsonValue(QJsonValue::Null);
}

std::optional<int64_t> readOptionalOffset(const QJsonValue& value) {
    if (!value.isDouble())
        return std::nullopt;
    return int64_t(value.toInteger());
}

JournalState stateFromName(const QString& name) {
    if (name == journalStateName(JournalState::InDoubt))
        return JournalState::InDoubt;
    if (name == journalStateName(JournalState::Recovered))
        return JournalState::Recovered;
    return JournalState::Done; // audit.jsonl entries have no state: they were all done
}

QJsonObject partitionToJson(const JournalPartition& partition) {
    QJsonObject object{{QStringLiteral("topic"), partition.topicPartition.topic},
                       {QStringLiteral("partition"), partition.topicPartition.partition},
                       {QStringLiteral("before"), optionalOffset(partition.before)},
                       {QStringLiteral("after"), optionalOffset(partition.after)},
                       {QStringLiteral("planned"), optionalOffset(partition.planned)}};
    if (!partition.beforeMetadata.isEmpty())
        object.insert(QStringLiteral("beforeMetadata"), partition.beforeMetadata);
    if (!partition.error.isEmpty())
        object.insert(QStringLiteral("error"), partition.error);
    if (partition.overwrittenWith) {
        object.insert(QStringLiteral("overwrittenWith"), qint64(*partition.overwrittenWith));
        object.insert(QStringLiteral("overwrittenAt"),
                      partition.overwrittenAt.toUTC().toString(Qt::ISODateWithMs));
    }
    return object;
}

kafka::Result<JournalPartition> partitionFromJson(const QJsonValue& value) {
    if (!value.isObject())
        return KafkaError::invalidArgument(QStringLiteral("a partition is not an object"));
    const QJsonObject p = value.toObject();
    JournalPartition partition;
    partition.topicPartition = {p[QStringLiteral("topic")].toString(),
                                p[QStringLiteral("partition")].toInt(-1)};
    if (partition.topicPartition.topic.isEmpty() || partition.topicPartition.partition < 0)
        return KafkaError::invalidArgument(QStringLiteral("a partition lacks topic or number"));
    partition.before = readOptionalOffset(p[QStringLiteral("before")]);
    partition.beforeMetadata = p[QStringLiteral("beforeMetadata")].toString();
    partition.after = readOptionalOffset(p[QStringLiteral("after")]);
    // audit.jsonl had no "planned": what it wrote is its "after".
    partition.planned = p.contains(QStringLiteral("planned"))
                            ? readOptionalOffset(p[QStringLiteral("planned")])
                            : partition.after;
    partition.error = p[QStringLiteral("error")].toString();
    partition.overwrittenWith = readOptionalOffset(p[QStringLiteral("overwrittenWith")]);
    if (partition.overwrittenWith)
        partition.overwrittenAt =
            QDateTime::fromString(p[QStringLiteral("overwrittenAt")].toString(), Qt::ISODateWithMs);
    return partition;
}

} // namespace

QString journalStateName(JournalState state) {
    switch (state) {
    case JournalState::InDoubt:
        return QStringLiteral("in doubt");
    case JournalState::Recovered:
        return QStringLiteral("recovered");
    case JournalState::Done:
        break;
    }
    return QStringLiteral("done");
}

bool JournalEntry::hasOverwrittenPartitions() const {
    return std::any_of(partitions.cbegin(), partitions.cend(),
                       [](const JournalPartition& p) { return p.overwritten(); });
}

QJsonObject JournalEntry::toJson() const {
    QJsonArray array;
    for (const JournalPartition& partition : partitions)
        array.append(partitionToJson(partition));
    QJsonObject object{{QStringLiteral("id"), id},
                       {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
                       {QStringLiteral("cluster"), cluster},
                       {QStringLiteral("clusterId"), clusterId},
                       {QStringLiteral("group"), groupId},
                       {QStringLiteral("appliedBy"), appliedBy},
                       {QStringLiteral("description"), description},
                       {QStringLiteral("state"), journalStateName(state)},
                       {QStringLiteral("partitions"), array}};
    if (!undoOf.isEmpty())
        object.insert(QStringLiteral("undoOf"), undoOf);
    if (!note.isEmpty())
        object.insert(QStringLiteral("note"), note);
    return object;
}

kafka::Result<JournalEntry> JournalEntry::fromJson(const QJsonObject& object) {
    JournalEntry entry;
    entry.id = object[QStringLiteral("id")].toString();
    entry.time =
        QDateTime::fromString(object[QStringLiteral("time")].toString(), Qt::ISODateWithMs);
    entry.cluster = object[QStringLiteral("cluster")].toString();
    entry.clusterId = object[QStringLiteral("clusterId")].toString();
    entry.groupId = object[QStringLiteral("group")].toString();
    entry.appliedBy = object[QStringLiteral("appliedBy")].toString();
    entry.description = object[QStringLiteral("description")].toString();
    entry.undoOf = object[QStringLiteral("undoOf")].toString();
    entry.state = stateFromName(object[QStringLiteral("state")].toString());
    entry.note = object[QStringLiteral("note")].toString();
    if (entry.id.isEmpty() || entry.groupId.isEmpty() ||
        !object[QStringLiteral("partitions")].isArray())
        return KafkaError::invalidArgument(QStringLiteral("entry lacks id, group or partitions"));
    if (!entry.time.isValid())
        return KafkaError::invalidArgument(
            QStringLiteral("entry %1 has no valid time").arg(entry.id));
    for (const QJsonValue& value : object[QStringLiteral("partitions")].toArray()) {
        auto partition = partitionFromJson(value);
        if (!partition)
            return KafkaError::invalidArgument(
                QStringLiteral("entry %1: %2").arg(entry.id, partition.error().message));
        entry.partitions.append(std::move(partition).value());
    }
    return entry;
}

QList<JournalEntry> parseJournalLines(const QByteArray& text, const QString& sourceName,
                                      QStringList* problems) {
    QList<JournalEntry> entries;
    int lineNumber = 0;
    for (const QByteArray& rawLine : text.split('\n')) {
        ++lineNumber;
        const QByteArray line = rawLine.trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
        auto entry = document.isObject() ? JournalEntry::fromJson(document.object())
                                         : kafka::Result<JournalEntry>(KafkaError::invalidArgument(
                                               parseError.error == QJsonParseError::NoError
                                                   ? QStringLiteral("not a JSON object")
                                                   : parseError.errorString()));
        if (entry) {
            entries.append(std::move(entry).value());
            continue;
        }
        if (problems)
            problems->append(QStringLiteral("%1:%2: %3 (line skipped)")
                                 .arg(sourceName)
                                 .arg(lineNumber)
                                 .arg(entry.error().message));
    }
    return entries;
}

} // namespace groupscope::offsets
