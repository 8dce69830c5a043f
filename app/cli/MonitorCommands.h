#pragma once

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

namespace groupscope::cli {

// `timeline --group G [--since DURATION] [--json]`: the group's generations, members and
// partition ownership over the last DURATION (ISO-8601, default PT1H), replayed from the
// offsets topic, or approximated from one poll when the topic cannot be read.
int runTimelineCommand(const CommandContext& context, ArgumentList& arguments);

// `watch --group G [--json] [--interval MS] [--count N] [--since DURATION]`: one line per
// poll with lag, time lag, rates, time to drain and the health verdict, until SIGINT or
// SIGTERM (or N updates).
int runWatchCommand(const CommandContext& context, ArgumentList& arguments);

} // namespace groupscope::cli
