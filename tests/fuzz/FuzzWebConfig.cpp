// libFuzzer target for the exporter's --web-config reader (a YAML subset from a file):
// whatever the file holds, it is read or refused with a message naming the file and line.
#include "export/WebConfig.h"

#include <cstddef>
#include <cstdint>

using namespace groupscope::exporter;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray text(reinterpret_cast<const char*>(data), qsizetype(size));
    const auto config = WebConfig::parse(text, QStringLiteral("/fuzz/web.yml"));
    if (!config) {
        if (!config.error().message.startsWith(u"/fuzz/web.yml"))
            __builtin_trap();
        return 0;
    }
    // Every user read has a bcrypt hash; TLS settings come as a pair.
    for (const QByteArray& hash : config.value().basicAuthUsers)
        if (!hash.startsWith("$2"))
            __builtin_trap();
    if (config.value().certFile.isEmpty() != config.value().keyFile.isEmpty())
        __builtin_trap();
    return 0;
}
