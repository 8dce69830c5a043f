#pragma once
// Helpers the decoders of each record family share: turning a reader's failure into an
// OffsetsTopicDecodeError, and reporting a value version newer than the schemas known here.

#include "kafka/protocol/WireReader.h"
#include "offsetstopic/OffsetsTopicRecord.h"

namespace groupscope::offsetstopic {
using kafka::protocol::WireReader;
}

namespace groupscope::offsetstopic::detail {

inline OffsetsTopicDecodeError errorFrom(const WireReader& reader, const QString& part,
                                         const QString& structure, int64_t recordTimestamp) {
    OffsetsTopicDecodeError error;
    error.part = part;
    error.structure = structure;
    error.field = QString::fromLatin1(reader.failedField());
    error.byteOffset = reader.failedAt();
    error.reason = reader.failureReason();
    error.recordTimestamp = recordTimestamp;
    return error;
}

inline QString versioned(const QString& structure, int16_t version) {
    return QStringLiteral("%1 v%2").arg(structure).arg(version);
}

// Reads a value's leading version; a negative one is corruption, not a future version.
inline int16_t readValueVersion(WireReader& reader) {
    const int16_t version = reader.readInt16("version");
    if (!reader.failed() && version < 0)
        reader.fail("version", 0, QStringLiteral("negative version %1").arg(version));
    return version;
}

inline OffsetsTopicRecord unknownValueVersion(const QString& structure, int16_t keyVersion,
                                              int16_t valueVersion, int16_t newestKnown,
                                              int64_t recordTimestamp) {
    UnknownOffsetsTopicRecord unknown;
    unknown.keyVersion = keyVersion;
    unknown.valueVersion = valueVersion;
    unknown.description = QStringLiteral("%1 version %2 is newer than the newest known (%3)")
                              .arg(structure)
                              .arg(valueVersion)
                              .arg(newestKnown);
    unknown.recordTimestamp = recordTimestamp;
    return unknown;
}

} // namespace groupscope::offsetstopic::detail
