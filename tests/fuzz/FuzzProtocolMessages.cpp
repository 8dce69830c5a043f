// libFuzzer target for the Kafka protocol codec (MessageCodec) and the response-frame
// reading (ResponseFrame) of Groupscope's own group-coordinator client.
//
// Input layout (ProtocolFuzzInput.h): byte 0 picks an API (from every ApiSpec in Apis.h),
// byte 1 what is decoded (bit 1: a whole response frame with its size prefix and header,
// correlation id 1; else bit 0: the response's body or the request's), byte 2 the version
// within the message's valid versions. The rest is the bytes decoded.
//
// Decoding untrusted bytes must never crash, and what decodes must re-encode stably: the
// re-encoded bytes decode again (with decode and decodePrefix) and re-encode to the same
// bytes. Reading a top-level array element by element (decodeStreaming) must agree with
// decoding whole. A mismatch aborts, so libFuzzer keeps the input.

#include "ProtocolFuzzInput.h"

#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ResponseFrame.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace groupscope::kafka;
using namespace groupscope::kafka::protocol;

namespace {

[[noreturn]] void mismatch(const MessageSpec& spec, int16_t version, const char* what,
                           const QString& detail = {}) {
    std::fprintf(stderr, "%s v%d: %s %s\n", spec.name, int(version), what,
                 detail.toUtf8().constData());
    std::abort();
}

// `decoded` came from untrusted bytes: its encoding must decode again, both ways, to
// something that encodes to the same bytes.
void requireStableEncoding(const MessageSpec& spec, int16_t version, const Struct& decoded) {
    const QByteArray encoded = MessageCodec::encode(spec, version, decoded);
    const Result<Struct> again = MessageCodec::decode(spec, version, encoded);
    if (!again)
        mismatch(spec, version, "re-encoded bytes do not decode:", again.error().message);
    if (MessageCodec::encode(spec, version, again.value()) != encoded)
        mismatch(spec, version, "re-encoding is not stable");
    const Result<Struct> prefix = MessageCodec::decodePrefix(spec, version, encoded);
    if (!prefix)
        mismatch(spec, version,
                 "re-encoded bytes do not decode as a prefix:", prefix.error().message);
    if (MessageCodec::encode(spec, version, prefix.value()) != encoded)
        mismatch(spec, version, "re-encoding after decodePrefix is not stable");
}

// Each top-level array of structures read element by element (decodeStreaming) agrees with
// decode(): the same failure, or, with the elements handed over put back, the same message.
void requireStreamingAgrees(const MessageSpec& spec, int16_t version, QByteArrayView bytes,
                            const Result<Struct>& decoded) {
    for (const FieldSpec& field : spec.fields) {
        const bool tagged =
            MessageCodec::isFlexible(spec, version) && field.taggedVersions.contains(version);
        if (field.type != FieldType::StructArray || tagged || !spec.validVersions.contains(version))
            continue;
        StructList handed;
        const MessageCodec::StreamedArray streamed{
            FieldName::fromSpec(field.name),
            [&handed](const Struct& element) { handed.push_back(element); }};
        Result<Struct> rest = MessageCodec::decodeStreaming(spec, version, bytes, streamed);
        if (bool(rest) != bool(decoded))
            mismatch(spec, version, "decodeStreaming and decode disagree on",
                     QLatin1String(field.name));
        if (!rest) {
            if (rest.error().message != decoded.error().message)
                mismatch(spec, version, "decodeStreaming fails otherwise:", rest.error().message);
            continue;
        }
        if (!handed.empty() || !decoded.value().isNull(streamed.field))
            rest.value().set(streamed.field, handed);
        if (MessageCodec::encode(spec, version, rest.value()) !=
            MessageCodec::encode(spec, version, decoded.value()))
            mismatch(spec, version, "decodeStreaming's elements differ in",
                     QLatin1String(field.name));
    }
}

void fuzzBody(const MessageSpec& spec, int16_t version, QByteArrayView bytes) {
    const Result<Struct> decoded = MessageCodec::decode(spec, version, bytes);
    requireStreamingAgrees(spec, version, bytes, decoded);
    const Result<Struct> prefix = MessageCodec::decodePrefix(spec, version, bytes);
    // What decodes whole also decodes as a prefix of itself.
    if (decoded && !prefix)
        mismatch(spec, version, "decodes whole but not as a prefix:", prefix.error().message);
    if (decoded) {
        requireStableEncoding(spec, version, decoded.value());
        if (MessageCodec::encode(spec, version, prefix.value()) !=
            MessageCodec::encode(spec, version, decoded.value()))
            mismatch(spec, version, "decode and decodePrefix disagree");
    }
    if (prefix)
        requireStableEncoding(spec, version, prefix.value());
    if (!decoded && decoded.error().message.isEmpty())
        mismatch(spec, version, "a failure without a message");
}

void fuzzResponseFrame(const ApiSpec& api, int16_t version, QByteArrayView bytes) {
    const QString broker = QStringLiteral("127.0.0.1:9092");
    const Result<Struct> parsed =
        ResponseFrame::parse(bytes, api, version, groupscope::fuzz::fuzzCorrelationId, broker);
    if (!parsed) {
        if (!parsed.error().message.contains(broker))
            mismatch(api.response, version,
                     "a frame failure that does not name the broker:", parsed.error().message);
        return;
    }
    // What parses as a frame is a whole frame: its size prefix is the rest's length.
    if (bytes.size() < ResponseFrame::sizePrefixBytes ||
        ResponseFrame::parseSize(bytes.first(ResponseFrame::sizePrefixBytes), broker).value() !=
            bytes.size() - ResponseFrame::sizePrefixBytes)
        mismatch(api.response, version, "a frame of the wrong size parsed");
    requireStableEncoding(api.response, version, parsed.value());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3)
        return 0;
    const ApiSpec& api = groupscope::fuzz::protocolApiAt(data[0]);
    const bool frame = (data[1] & 2) != 0;
    const bool response = frame || (data[1] & 1) != 0;
    const MessageSpec& spec = response ? api.response : api.request;
    const int range = spec.validVersions.last - spec.validVersions.first + 1;
    const int16_t version = int16_t(spec.validVersions.first + data[2] % range);
    const QByteArrayView bytes(data + 3, qsizetype(size - 3));
    if (frame)
        fuzzResponseFrame(api, version, bytes);
    else
        fuzzBody(spec, version, bytes);
    return 0;
}
