#pragma once

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

namespace groupscope::cli {

// `reset`: kafka-consumer-groups --reset-offsets, dry run unless --execute.
int runResetCommand(const CommandContext& context, ArgumentList& arguments);
// `undo --entry ID [--execute]`: back to the offsets a journal entry recorded as "before",
// refusing partitions that moved since unless told what to do with them.
int runUndoCommand(const CommandContext& context, ArgumentList& arguments);
// `history [--group G | --entry ID] [--json]`: the write journal.
int runHistoryCommand(const CommandContext& context, ArgumentList& arguments);
// `delete-offsets --group G --topic T[:P,...] ... [--execute]`.
int runDeleteOffsetsCommand(const CommandContext& context, ArgumentList& arguments);
// `delete --group G ... [--execute]`: kafka-consumer-groups --delete, dry run by default,
// each deleted group's offsets in the write journal (undo commits them again).
int runDeleteGroupsCommand(const CommandContext& context, ArgumentList& arguments);

} // namespace groupscope::cli
