#pragma once
// The usage errors every command reports the same way.

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

namespace groupscope::cli {

inline int usageError(const CommandContext& context, const QString& message) {
    context.err << "Error: " << message << u'\n';
    return ExitUsage;
}

// Unknown words left after a command took its options: a usage error naming them.
inline int rejectLeftovers(const CommandContext& context, const ArgumentList& arguments) {
    if (!arguments.error().isEmpty())
        return usageError(context, arguments.error());
    if (!arguments.remaining().isEmpty())
        return usageError(context, QStringLiteral("unexpected argument \"%1\" (see groupscope-cli "
                                                  "--help)")
                                       .arg(arguments.remaining().first()));
    return ExitSuccess;
}

} // namespace groupscope::cli
