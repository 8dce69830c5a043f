// libFuzzer target for the reset value parsers: the first byte picks the mode, the rest is
// the text a user typed (date-time, ISO duration, offset, shift).
#include "offsets/ResetSpec.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

using namespace groupscope::offsets;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    constexpr ResetMode modes[] = {
        ResetMode::ToOffset,   ResetMode::ToDatetime, ResetMode::ByDuration, ResetMode::ShiftBy,
        ResetMode::ToEarliest, ResetMode::ToLatest,   ResetMode::ToCurrent,  ResetMode::ToGroup};
    const ResetMode mode = modes[data[0] % std::size(modes)];
    const QString text =
        QString::fromUtf8(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const auto spec = ResetSpec::parse(mode, text);
    if (spec.ok()) {
        (void)spec.value().describe();
        (void)spec.value().lookupTimestampMs(1'700'000'000'000);
        // A parsed date-time prints in Kafka's format and parses back to the same instant.
        if (mode == ResetMode::ToDatetime) {
            const auto again = parseResetDateTime(formatResetDateTime(spec.value().timestampMs));
            if (!again.ok() || again.value() != spec.value().timestampMs)
                __builtin_trap();
        }
    }
    return 0;
}
