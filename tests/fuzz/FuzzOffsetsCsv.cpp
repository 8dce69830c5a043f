// libFuzzer target for the offsets-file reader (Kafka's CSV formats). The first byte picks
// the groups being reset (none, one, or two), the rest is the file content.
#include "offsets/OffsetsCsv.h"

#include <cstddef>
#include <cstdint>

using namespace groupscope::offsets;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    static const QStringList groupChoices[] = {
        {}, {QStringLiteral("g")}, {QStringLiteral("g"), QStringLiteral("h")}};
    const QStringList& groups = groupChoices[data[0] % 3];
    const QByteArray content(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const auto rows = OffsetsCsv::parse(content, QStringLiteral("fuzz.csv"), groups);
    if (rows.ok()) {
        // What was read must survive a write and a second read unchanged. Rows of a file read
        // without a group to reset have no group id: they go back out as three columns.
        const bool withGroup = !rows.value().first().groupId.isEmpty();
        const QByteArray written = OffsetsCsv::write(rows.value(), withGroup);
        const auto again = OffsetsCsv::parse(written, QStringLiteral("again.csv"), {});
        if (!again.ok() || again.value().size() != rows.value().size())
            __builtin_trap();
    }
    return 0;
}
