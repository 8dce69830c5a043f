#pragma once
// What a fuzz target asserts: a property that fails stops the run as a crash libFuzzer keeps.

namespace groupscope::fuzz {

inline void check(bool condition) {
    if (!condition)
        __builtin_trap();
}

} // namespace groupscope::fuzz
