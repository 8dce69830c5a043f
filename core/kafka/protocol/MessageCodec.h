#pragma once
// Encoding and decoding of any message described by a MessageSpec, in any of its versions.

#include "kafka/Result.h"
#include "kafka/protocol/MessageStruct.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>
#include <variant>

namespace groupscope::kafka::protocol {

class MessageCodec {
public:
    // An empty structure of the message's top-level fields, to fill in.
    static Struct make(const MessageSpec& spec) { return Struct(&spec.fields); }

    // The message body (no size prefix, no header) in `version`. Fields the version does
    // not have are left out; a tagged field is written when it differs from its default.
    static QByteArray encode(const MessageSpec& spec, int16_t version, const Struct& message);

    // Decodes untrusted bytes: every length is checked against what is left, a version
    // outside the spec is refused, unknown tagged fields are skipped, and a failure names
    // the message, the version, the field and the byte it happened at.
    static Result<Struct> decode(const MessageSpec& spec, int16_t version, QByteArrayView bytes);
    // decode() for answers too big to hold decoded whole (OffsetFetch for 10,000 groups of
    // ten partitions: 21.8 MB as a tree, ten times its bytes): each element of the untagged
    // top-level array `streamed.field` goes to `streamed.element` as soon as it is decoded,
    // and is not kept in the message returned (where that field reads as empty). Decoding
    // stops at the first malformed byte, as decode() does, so elements may have been handed
    // over before an error: the caller drops what it made of them then.
    struct StreamedArray {
        FieldName field;
        std::function<void(const Struct&)> element;
    };
    static Result<Struct> decodeStreaming(const MessageSpec& spec, int16_t version,
                                          QByteArrayView bytes, const StreamedArray& streamed);
    // The same for formats whose newer versions only append fields (the consumer
    // protocol's embedded assignment): bytes after the known fields are ignored.
    static Result<Struct> decodePrefix(const MessageSpec& spec, int16_t version,
                                       QByteArrayView bytes);

    // Where decoding stopped and why, for callers that report it in their own terms (the
    // records of __consumer_offsets name the part of the record and the byte).
    struct DecodeFailure {
        QString structure; // the spec's name
        int16_t version = 0;
        QString field; // the spec's field name; empty when the version is not in the spec
        int byteOffset = 0;
        QString reason;
        // "malformed <structure> v<version>: field <field> at byte <offset>: <reason>"
        QString toString() const;
    };
    using Decoded = std::variant<Struct, DecodeFailure>;
    // Bytes after the known fields: an error (a whole message), or ignored (formats whose
    // newer versions only append fields).
    enum class Trailing { Refused, Ignored };
    static Decoded decodeReportingFailure(const MessageSpec& spec, int16_t version,
                                          QByteArrayView bytes, Trailing trailing);

    static bool isFlexible(const MessageSpec& spec, int16_t version) {
        return spec.flexibleVersions.contains(version);
    }
};

} // namespace groupscope::kafka::protocol
