#pragma once

#include "offsets/ResetPlanner.h"

namespace groupscope::offsets {

// The kafka-consumer-groups command line that makes the same reset, for people who want to
// run or record it with Kafka's own tool ("copy as command"). One exists when every row
// shares one spec and the scope is expressible; plans edited row by row have none (use
// the exported CSV with --from-file).
struct KafkaResetCommand {
    QString bootstrapServers;
    QStringList groups; // empty with allGroups
    bool allGroups = false;
    ResetScope scope;
    ResetSpec spec;
    QString fromFile; // set instead of spec/scope for file plans
    bool execute = false;

    QString toString() const;
    // Whether Kafka's tool has the spec's option: it has no --to-group.
    static bool expressible(const ResetSpec& spec) { return spec.mode != ResetMode::ToGroup; }
};

QString shellQuote(const QString& word);

} // namespace groupscope::offsets
