#include "offsets/ResetSpec.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

#include <limits>

namespace groupscope::offsets {

using kafka::KafkaError;

QString resetModeName(ResetMode mode) {
    switch (mode) {
    case ResetMode::ToOffset:
        return QStringLiteral("to-offset");
    case ResetMode::ToDatetime:
        return QStringLiteral("to-datetime");
    case ResetMode::ByDuration:
        return QStringLiteral("by-duration");
    case ResetMode::ShiftBy:
        return QStringLiteral("shift-by");
    case ResetMode::ToEarliest:
        return QStringLiteral("to-earliest");
    case ResetMode::ToLatest:
        return QStringLiteral("to-latest");
    case ResetMode::ToCurrent:
        return QStringLiteral("to-current");
    case ResetMode::ToGroup:
        return QStringLiteral("to-group");
    }
    return {};
}

ResetSpec ResetSpec::toOffset(int64_t offset) {
    ResetSpec spec;
    spec.mode = ResetMode::ToOffset;
    spec.offset = offset;
    spec.text = QString::number(offset);
    return spec;
}

ResetSpec ResetSpec::shiftBy(int64_t shift) {
    ResetSpec spec;
    spec.mode = ResetMode::ShiftBy;
    spec.offset = shift;
    spec.text = QString::number(shift);
    return spec;
}

ResetSpec ResetSpec::toTimestamp(int64_t timestampMs) {
    ResetSpec spec;
    spec.mode = ResetMode::ToDatetime;
    spec.timestampMs = timestampMs;
    spec.text = formatResetDateTime(timestampMs);
    return spec;
}

ResetSpec ResetSpec::byDuration(int64_t durationMs) {
    ResetSpec spec;
    spec.mode = ResetMode::ByDuration;
    spec.durationMs = durationMs;
    spec.text = QStringLiteral("PT%1S").arg(double(durationMs) / 1000.0, 0, 'f', 3);
    return spec;
}

ResetSpec ResetSpec::toGroup(const QString& sourceGroup) {
    ResetSpec spec;
    spec.mode = ResetMode::ToGroup;
    spec.sourceGroup = sourceGroup;
    spec.text = sourceGroup;
    return spec;
}

ResetSpec ResetSpec::logical(ResetMode mode) {
    ResetSpec spec;
    spec.mode = mode;
    return spec;
}

kafka::Result<ResetSpec> ResetSpec::parse(ResetMode mode, const QString& value) {
    const QString text = value.trimmed();
    ResetSpec spec;
    switch (mode) {
    case ResetMode::ToOffset: {
        auto offset = parseInt64(text, QStringLiteral("offset"));
        if (!offset)
            return offset.error();
        // Kafka's tool would clamp a negative offset to the log start; a negative number
        // here is far more often a shift typed in the wrong field, so it is refused.
        if (offset.value() < 0)
            return KafkaError::invalidArgument(
                QStringLiteral("offset %1 is negative; to move back by %2 messages use shift-by")
                    .arg(text, text.mid(1)));
        spec = toOffset(offset.value());
        break;
    }
    case ResetMode::ShiftBy: {
        auto shift = parseInt64(text, QStringLiteral("shift"));
        if (!shift)
            return shift.error();
        spec = shiftBy(shift.value());
        break;
    }
    case ResetMode::ToDatetime: {
        auto timestamp = parseResetDateTime(text);
        if (!timestamp)
            return timestamp.error();
        spec = toTimestamp(timestamp.value());
        break;
    }
    case ResetMode::ByDuration: {
        auto duration = parseIsoDuration(text);
        if (!duration)
            return duration.error();
        spec = byDuration(duration.value());
        break;
    }
    case ResetMode::ToGroup:
        if (text.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("to-group needs the group whose offsets to copy"));
        return toGroup(text);
    case ResetMode::ToEarliest:
    case ResetMode::ToLatest:
    case ResetMode::ToCurrent:
        if (!text.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("%1 takes no value, got \"%2\"").arg(resetModeName(mode), text));
        return logical(mode);
    }
    spec.text = text;
    return spec;
}

int64_t ResetSpec::lookupTimestampMs(int64_t nowMs) const {
    if (mode == ResetMode::ByDuration)
        return nowMs - durationMs;
    return timestampMs;
}

QString ResetSpec::describe() const {
    switch (mode) {
    case ResetMode::ToOffset:
        return QStringLiteral("to offset %1").arg(offset);
    case ResetMode::ShiftBy:
        return QStringLiteral("shift by %1%2")
            .arg(offset > 0 ? QStringLiteral("+") : QString())
            .arg(offset);
    case ResetMode::ToDatetime:
        return QStringLiteral("to %1").arg(formatResetDateTime(timestampMs));
    case ResetMode::ByDuration:
        return QStringLiteral("back by %1").arg(text);
    case ResetMode::ToEarliest:
        return QStringLiteral("to earliest");
    case ResetMode::ToLatest:
        return QStringLiteral("to latest");
    case ResetMode::ToCurrent:
        return QStringLiteral("to current");
    case ResetMode::ToGroup:
        return QStringLiteral("to group %1").arg(sourceGroup);
    }
    return {};
}

kafka::Result<int64_t> parseInt64(const QString& text, const QString& what) {
    static const QRegularExpression integer(QStringLiteral("^[+-]?[0-9]+$"));
    if (!integer.match(text).hasMatch())
        return KafkaError::invalidArgument(
            QStringLiteral("%1 \"%2\" is not a whole number").arg(what, text.left(40)));
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok)
        return KafkaError::invalidArgument(
            QStringLiteral("%1 \"%2\" does not fit in 64 bits").arg(what, text.left(40)));
    return int64_t(value);
}

kafka::Result<int64_t> parseResetDateTime(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral(
        R"(^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$)"));
    const auto match = pattern.match(text);
    const QString example =
        QStringLiteral("e.g. 2024-01-31T12:00:00.000 or 2024-01-31T12:00:00.000+01:00");
    if (!match.hasMatch())
        return KafkaError::invalidArgument(
            QStringLiteral("date-time \"%1\" is not yyyy-MM-ddTHH:mm:ss.SSS[zone] (%2)")
                .arg(text.left(60), example));
    const QDate date(match.captured(1).toInt(), match.captured(2).toInt(),
                     match.captured(3).toInt());
    if (!date.isValid())
        return KafkaError::invalidArgument(
            QStringLiteral("date-time \"%1\": no such date").arg(text));
    const QString fraction = match.captured(7);
    // Kafka reads ".5" as 5 ms (SimpleDateFormat), people read it as 500 ms: demand 3 digits.
    if (match.hasCaptured(7) && fraction.size() != 3)
        return KafkaError::invalidArgument(
            QStringLiteral(
                "date-time \"%1\": the fraction of a second must have 3 digits (milliseconds)")
                .arg(text));
    const QTime time(match.captured(4).toInt(), match.captured(5).toInt(),
                     match.captured(6).toInt(), fraction.isEmpty() ? 0 : fraction.toInt());
    if (!time.isValid())
        return KafkaError::invalidArgument(
            QStringLiteral("date-time \"%1\": no such time of day").arg(text));

    int offsetSeconds = 0;
    const QString zone = match.captured(8);
    if (!zone.isEmpty() && zone != u"Z") {
        const int sign = zone.startsWith(u'-') ? -1 : 1;
        const QString digits = zone.mid(1).remove(u':');
        const int hours = digits.left(2).toInt();
        const int minutes = digits.size() > 2 ? digits.mid(2, 2).toInt() : 0;
        if (hours > 18 || minutes > 59 || (hours == 18 && minutes > 0))
            return KafkaError::invalidArgument(
                QStringLiteral(
                    "date-time \"%1\": zone offset %2 is out of range (-18:00 to +18:00)")
                    .arg(text, zone));
        offsetSeconds = sign * (hours * 3600 + minutes * 60);
    }
    const QDateTime dateTime(date, time, QTimeZone(offsetSeconds));
    return int64_t(dateTime.toMSecsSinceEpoch());
}

QString formatResetDateTime(int64_t timestampMs) {
    return QDateTime::fromMSecsSinceEpoch(timestampMs, Qt::UTC)
               .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) +
           u'Z';
}

kafka::Result<int64_t> parseIsoDuration(const QString& text) {
    static const QRegularExpression pattern(
        QStringLiteral(
            R"(^([-+]?)P(?:([-+]?\d+)D)?(T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,](\d{0,9}))?S)?)?$)"),
        QRegularExpression::CaseInsensitiveOption);
    const auto match = pattern.match(text);
    const QString hint = QStringLiteral("use ISO-8601, e.g. PT30M, PT1H30M, P1DT12H");
    if (!match.hasMatch() || text.compare(QStringLiteral("P"), Qt::CaseInsensitive) == 0 ||
        (match.captured(3).size() == 1) || // "T" with nothing after it
        (match.captured(2).isEmpty() && match.captured(3).isEmpty()))
        return KafkaError::invalidArgument(
            QStringLiteral("duration \"%1\" is not valid: %2").arg(text.left(60), hint));

    // Every step is checked for int64 overflow: a duration that does not fit is an error,
    // never a wrapped-around timestamp.
    int64_t totalMs = 0;
    auto addPart = [&](int group, int64_t unitMs) -> bool {
        if (!match.hasCaptured(group) || match.captured(group).isEmpty())
            return true;
        bool ok = false;
        const qlonglong value = match.captured(group).toLongLong(&ok);
        int64_t partMs = 0;
        return ok && !__builtin_mul_overflow(int64_t(value), unitMs, &partMs) &&
               !__builtin_add_overflow(totalMs, partMs, &totalMs);
    };
    bool fits =
        addPart(2, 86'400'000) && addPart(4, 3'600'000) && addPart(5, 60'000) && addPart(6, 1000);
    if (fits && match.hasCaptured(7) && !match.captured(7).isEmpty()) {
        const int64_t millis = match.captured(7).leftJustified(3, u'0').left(3).toLongLong();
        fits = !__builtin_add_overflow(
            totalMs, match.captured(6).startsWith(u'-') ? -millis : millis, &totalMs);
    }
    if (!fits || totalMs == std::numeric_limits<int64_t>::min())
        return KafkaError::invalidArgument(
            QStringLiteral("duration \"%1\" is too long").arg(text.left(60)));
    return match.captured(1) == u"-" ? -totalMs : totalMs;
}

} // namespace groupscope::offsets
