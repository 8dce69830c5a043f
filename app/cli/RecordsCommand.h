#pragma once

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

namespace groupscope::cli {

// `records [--group G] --topic T:P [--at committed|earliest|latest|OFFSET|DATETIME]
// [--before N] [--after N] [--follow] [--format text|json|hex] [--read-uncommitted] [--json]`:
// one partition's records around an offset (by default the group's committed one, marked),
// read without joining any group and without committing.
int runRecordsCommand(const CommandContext& context, ArgumentList& arguments);

} // namespace groupscope::cli
