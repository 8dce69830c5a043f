#pragma once

#include "cli/CommandContext.h"
#include "offsets/ResetSession.h"

#include <QJsonArray>

namespace groupscope::cli {

// How groupscope-cli shows a reset session: the plan as Kafka's tool prints it (plus the
// next record when previewed), as JSON or as Kafka's CSV, the summary line, and each
// group's outcome after an apply. Rendering only; the session decides everything.
using Previews = offsets::ResetSession::RecordPreviews;

void printPlan(const CommandContext& context, const offsets::ResetPlan& plan,
               const Previews& previews = {});
QJsonArray planToJson(const offsets::ResetPlan& plan, const Previews& previews = {});
// Byte for byte Kafka's --export; rows that cannot be planned are named on stderr.
void printPlanCsv(const CommandContext& context, const offsets::ResetPlan& plan, bool withGroup);
void printPlanSummary(const CommandContext& context, const offsets::ResetPlan& plan);
// Prints each group's outcome; returns the exit code.
int reportApply(const CommandContext& context, const QList<offsets::GroupApplyResult>& results);
// "-" for no offset.
QString offsetText(const std::optional<int64_t>& offset);

} // namespace groupscope::cli
