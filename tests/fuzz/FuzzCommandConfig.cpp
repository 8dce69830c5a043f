// libFuzzer target for --command-config files (librdkafka properties, key=value lines).
#include "kafka/ConnectionProfile.h"

#include <cstddef>
#include <cstdint>

using groupscope::kafka::ConnectionProfile;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const auto profile =
        ConnectionProfile::fromCommandConfigText(text, QStringLiteral("fuzz.properties"));
    if (profile.ok())
        (void)profile.value().toProperties();
    return 0;
}
