#include "offsets/KafkaCommandLine.h"

#include <QRegularExpression>

namespace groupscope::offsets {

QString shellQuote(const QString& word) {
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:,=+@%-]+$"));
    if (safe.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

QString KafkaResetCommand::toString() const {
    QStringList words{QStringLiteral("kafka-consumer-groups"), QStringLiteral("--bootstrap-server"),
                      bootstrapServers, QStringLiteral("--reset-offsets")};
    if (allGroups)
        words << QStringLiteral("--all-groups");
    for (const QString& group : groups)
        words << QStringLiteral("--group") << group;
    if (!fromFile.isEmpty()) {
        words << QStringLiteral("--from-file") << fromFile;
    } else {
        if (scope.allTopics)
            words << QStringLiteral("--all-topics");
        for (const QString& topic : scope.topics)
            words << QStringLiteral("--topic") << topic;
        switch (spec.mode) {
        case ResetMode::ToOffset:
            words << QStringLiteral("--to-offset") << QString::number(spec.offset);
            break;
        case ResetMode::ShiftBy:
            words << QStringLiteral("--shift-by") << QString::number(spec.offset);
            break;
        case ResetMode::ToDatetime:
            words << QStringLiteral("--to-datetime") << formatResetDateTime(spec.timestampMs);
            break;
        case ResetMode::ByDuration:
            words << QStringLiteral("--by-duration") << spec.text;
            break;
        case ResetMode::ToEarliest:
            words << QStringLiteral("--to-earliest");
            break;
        case ResetMode::ToLatest:
            words << QStringLiteral("--to-latest");
            break;
        case ResetMode::ToCurrent:
            words << QStringLiteral("--to-current");
            break;
        case ResetMode::ToGroup:
            // Not Kafka's (see expressible()): its way is --from-file with G's offsets.
            break;
        }
    }
    words << (execute ? QStringLiteral("--execute") : QStringLiteral("--dry-run"));
    QStringList quoted;
    for (const QString& word : words)
        quoted.append(shellQuote(word));
    return quoted.join(u' ');
}

} // namespace groupscope::offsets
