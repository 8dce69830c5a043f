#pragma once
// What `timeline` prints, as text and as JSON: a classic group's generations, or a
// consumer-protocol group's epochs with its target assignments, each member's
// reconciliation and the partitions that moved between members.

#include "cli/CommandContext.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/OffsetsTopicStream.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace groupscope::cli {

// Shared with `watch`: an ISO-8601 UTC time with milliseconds, and a JSON number or null.
QString isoTime(int64_t ms);
QJsonValue optionalNumber(std::optional<int64_t> value);

QJsonObject timelineToJson(const monitor::GroupMonitorSnapshot& snapshot, int64_t sinceMs,
                           const std::optional<monitor::OffsetsTopicStream::Status>& stream);
void printTimelineText(const CommandContext& context,
                       const monitor::GroupMonitorSnapshot& snapshot);

// The consumer-protocol parts (ConsumerTimelineOutput.cpp).
QString groupProtocolName(timeline::GroupProtocol protocol);
// Adds targetAssignments, reconciliation, ownership and unresolvedTopicIds.
void addConsumerTimelineJson(const timeline::GroupTimeline& timeline, QJsonObject& into);
void printConsumerTimelineText(const CommandContext& context,
                               const timeline::GroupTimeline& timeline);

} // namespace groupscope::cli
