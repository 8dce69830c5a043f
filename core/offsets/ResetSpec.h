#pragma once

#include "kafka/Result.h"

#include <QString>

#include <cstdint>

namespace groupscope::offsets {

// How one partition's new offset is chosen. "From file" is not a mode of its own: a file's
// rows become ToOffset specs, which is also how Kafka's tool treats them.
// ToGroup copies another group's committed offsets (kafkactl's group clone, Redpanda
// Console#96); Kafka's tool has no such option (its way is --from-file with G's offsets).
enum class ResetMode {
    ToOffset,
    ToDatetime,
    ByDuration,
    ShiftBy,
    ToEarliest,
    ToLatest,
    ToCurrent,
    ToGroup
};

QString resetModeName(ResetMode mode); // "to-offset", "to-datetime", ... as the CLI flags say

struct ResetSpec {
    ResetMode mode = ResetMode::ToCurrent;
    int64_t offset = 0;      // ToOffset: the offset; ShiftBy: the signed shift
    int64_t timestampMs = 0; // ToDatetime: ms since the epoch
    int64_t durationMs = 0;  // ByDuration: how far back from "now"
    QString text;            // what the user wrote, for messages and the Kafka command line
    QString sourceGroup;     // ToGroup: the group whose committed offsets are copied

    static ResetSpec toOffset(int64_t offset);
    static ResetSpec shiftBy(int64_t shift);
    static ResetSpec toTimestamp(int64_t timestampMs);
    static ResetSpec byDuration(int64_t durationMs);
    static ResetSpec logical(ResetMode mode); // earliest, latest, current
    static ResetSpec toGroup(const QString& sourceGroup);

    // Parses the value that goes with a mode ("42", "-5", "2024-01-31T12:00:00.000+01:00",
    // "PT1H30M", a group id). Logical modes take no value. Errors say what is wrong with the text.
    static kafka::Result<ResetSpec> parse(ResetMode mode, const QString& value);

    // The timestamp this spec looks up, for the time-based modes, given "now".
    int64_t lookupTimestampMs(int64_t nowMs) const;
    QString describe() const; // e.g. "shift by -100", "to 2024-01-31T11:00:00.000Z"

    friend bool operator==(const ResetSpec&, const ResetSpec&) = default;
};

// Kafka's reset date-time: yyyy-MM-ddTHH:mm:ss.SSS with an optional zone (Z, +08, +0800,
// +08:00); no zone means UTC, as in Kafka's tool. Groupscope also accepts the time without
// milliseconds. Returns ms since the epoch.
kafka::Result<int64_t> parseResetDateTime(const QString& text);
QString formatResetDateTime(int64_t timestampMs); // UTC, Kafka's format with "Z"

// ISO-8601 durations as java.time.Duration reads them: PnDTnHnMn.nS, signs allowed.
kafka::Result<int64_t> parseIsoDuration(const QString& text);

// A whole number that fits in int64, with a message that names `what` when it does not.
kafka::Result<int64_t> parseInt64(const QString& text, const QString& what);

} // namespace groupscope::offsets
