#pragma once

#include "cli/ArgumentList.h"
#include "offsets/ResetPlanner.h"
#include "offsets/ResetSpec.h"

#include <chrono>
#include <optional>

namespace groupscope::cli {

// What `reset` was asked to do, read from its arguments and checked before anything
// touches the network (kafka-consumer-groups --reset-offsets' options and a few of ours).
struct ResetCommandOptions {
    QStringList groups; // --group, repeatable
    bool allGroups = false;
    // Kafka's tool writes three export columns only for exactly one --group value.
    bool exportWithGroup = false;
    offsets::ResetScope scope;
    std::optional<QString> fromFile;
    std::optional<offsets::ResetSpec> spec; // empty with --from-file
    bool execute = false;
    bool exportCsv = false;
    bool asJson = false;
    bool asKafkaCommand = false;
    bool withPreview = false;
    std::chrono::milliseconds waitForEmpty{0};
    // Write although a consumer outside the group's membership still commits to it.
    bool force = false;
    // How long after the write its offsets are read again to see that they held.
    std::chrono::milliseconds verifyFor{5000};

    // The problem with the arguments (empty when none) and the exit code it calls for
    // (ExitUsage for a wrong combination, ExitFailure for a value that does not parse).
    QString error;
    int errorCode = 0;

    static ResetCommandOptions parse(ArgumentList& arguments);
};

// The value of --verify-for: whole seconds from 0 to 3600.
kafka::Result<std::chrono::milliseconds> parseVerifySeconds(const QString& text);

} // namespace groupscope::cli
