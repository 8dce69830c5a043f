#pragma once

#include <cstdint>

namespace groupscope::lag {

// How far behind in time a committed offset is: now minus the time the log end was at it.
struct TimeLag {
    enum class Status {
        Estimated, // seconds is an interpolated or extrapolated estimate
        CaughtUp,  // the commit is at (or past) the newest known log end: 0 s
        AtLeast,   // no production seen in the table: seconds is a lower bound
        Unknown,   // too few log-end samples, or no commit
    };
    Status status = Status::Unknown;
    double seconds = 0;
    bool extrapolated = false;

    bool isKnown() const { return status == Status::Estimated || status == Status::CaughtUp; }
};

// When the lag will reach zero at the current rates.
struct DrainEstimate {
    enum class Status {
        Drained,     // no lag
        Draining,    // seconds until zero lag
        NotDraining, // consumption does not outpace production
        Unknown,     // a rate is not known yet
    };
    Status status = Status::Unknown;
    double seconds = 0;
};

} // namespace groupscope::lag
