#pragma once

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

namespace groupscope::cli {

// `list [--state] [--json]`: the cluster's consumer groups.
int runListCommand(const CommandContext& context, ArgumentList& arguments);

// `describe (--group G ... | --all-groups) [--members [--verbose]] [--state] [--json]`:
// per partition, the committed offset, log end and lag, as kafka-consumer-groups shows.
int runDescribeCommand(const CommandContext& context, ArgumentList& arguments);

} // namespace groupscope::cli
