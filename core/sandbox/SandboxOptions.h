#pragma once

#include <QString>

#include <chrono>

namespace groupscope::sandbox {

// How the demo workload runs. Names and rates come from SandboxLayout; these only scale
// and rename them.
struct SandboxOptions {
    // Multiplies every production and consumption rate.
    double rateScale = 1.0;
    // How often the shipping group gains or loses a member.
    std::chrono::milliseconds rebalanceInterval = std::chrono::seconds(20);
    // Prepended to every topic and group name, so tests (and people sharing a cluster) can
    // run their own sandbox without touching anybody else's. Empty by default.
    QString namePrefix;
    // Bound on reaching the cluster and creating the topics.
    std::chrono::milliseconds setupTimeout = std::chrono::seconds(10);
};

} // namespace groupscope::sandbox
