// Writes the seed corpus of fuzz_protocol-messages (tests/fuzz/corpus/protocol-messages):
// the real requests and answers of Groupscope's group protocol client talking to the test
// broker (through test::FaultyProxy, which sees every frame), and, for every API the
// client describes, messages encoded from their schema at the oldest and newest version,
// plus the faults the decoders must refuse (a frame over the size limit, a truncated one,
// an unknown tagged field). Run by hand when the schemas change:
//
//   GROUPSCOPE_TEST_BOOTSTRAP=127.0.0.1:PORT capture_protocol_corpus
//   tests/fuzz/corpus/protocol-messages
//
// Without a broker (no GROUPSCOPE_TEST_BOOTSTRAP) only the encoded seeds are written.
#include "FaultyProxy.h"
#include "ProtocolFuzzInput.h"
#include "TestBroker.h"

#include "kafka/GroupProtocolClient.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ResponseFrame.h"
#include "kafka/protocol/WireReader.h"
#include "kafka/protocol/WireWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMutex>

#include <cstdio>

using namespace groupscope;
using namespace groupscope::kafka::protocol;
using fuzz::ProtocolInputKind;
using groupscope::kafka::protocol::ResponseFrame;

namespace {

QDir output;
QMutex outputMutex;
int written = 0;

int apiIndex(ApiKey key) {
    for (size_t i = 0; i < fuzz::protocolApiCount; ++i) {
        if (fuzz::protocolApiAt(i).key == key)
            return int(i);
    }
    return -1;
}

// One seed: the three layout bytes, then `bytes`. The first seed of a name is kept.
void writeSeed(const QString& name, ApiKey key, ProtocolInputKind kind, int16_t version,
               QByteArrayView bytes) {
    const int index = apiIndex(key);
    if (index < 0)
        return;
    const ApiSpec& api = fuzz::protocolApiAt(size_t(index));
    const MessageSpec& spec = kind == ProtocolInputKind::RequestBody ? api.request : api.response;
    if (!spec.validVersions.contains(version))
        return;
    QByteArray seed;
    seed.append(char(index));
    seed.append(char(kind));
    seed.append(char(version - spec.validVersions.first));
    seed.append(bytes);
    QMutexLocker lock(&outputMutex);
    QFile file(output.filePath(name));
    if (file.exists() || !file.open(QIODevice::WriteOnly))
        return;
    file.write(seed);
    ++written;
}

QString seedName(const char* origin, const ApiSpec& api, int16_t version, const char* what) {
    return QStringLiteral("%1-%2-v%3-%4")
        .arg(QLatin1String(origin), QString::fromLatin1(api.name).toLower())
        .arg(version)
        .arg(QLatin1String(what));
}

// A frame as the client or the broker sent it, as seeds: a request's body; an answer's
// body, and the whole answer with its correlation id made the fuzzer's.
void captureFrame(bool request, ApiKey key, int16_t version, const QByteArray& frame) {
    const int index = apiIndex(key);
    if (index < 0)
        return;
    const ApiSpec& api = fuzz::protocolApiAt(size_t(index));
    const QByteArrayView afterSize = QByteArrayView(frame).sliced(4);
    if (request) {
        // Request header: api key, version, correlation id, client id (a classic string),
        // then tagged fields in flexible versions.
        WireReader header(afterSize);
        header.readInt16("api key");
        header.readInt16("version");
        header.readInt32("correlation id");
        header.readNullableString("client id", false);
        if (MessageCodec::isFlexible(api.request, version))
            header.skipTaggedFields("header");
        if (!header.failed())
            writeSeed(seedName("broker", api, version, "request"), key,
                      ProtocolInputKind::RequestBody, version, afterSize.sliced(header.position()));
        return;
    }
    const kafka::Result<qsizetype> bodyStart = ResponseFrame::parseHeader(
        afterSize, api, version, WireReader(afterSize).readInt32("id"), QStringLiteral("broker"));
    if (!bodyStart)
        return;
    writeSeed(seedName("broker", api, version, "response"), key, ProtocolInputKind::ResponseBody,
              version, afterSize.sliced(bodyStart.value()));
    QByteArray renumbered = frame;
    WireWriter id;
    id.writeInt32(fuzz::fuzzCorrelationId);
    renumbered.replace(4, 4, id.bytes());
    writeSeed(seedName("broker", api, version, "frame"), key, ProtocolInputKind::ResponseFrame,
              version, renumbered);
}

// Every field the version has set to a value of its type (structure arrays get two
// elements), so that every field's encoding is in the seed.
void fill(Struct& message, const std::vector<FieldSpec>& fields, int16_t version) {
    for (const FieldSpec& field : fields) {
        if (!field.versions.contains(version))
            continue;
        const kafka::protocol::FieldName name = kafka::protocol::FieldName::fromSpec(field.name);
        switch (field.type) {
        case FieldType::Bool:
            message.setBool(name, true);
            break;
        case FieldType::Int8:
        case FieldType::Int16:
        case FieldType::Uint16:
        case FieldType::Int32:
        case FieldType::Int64:
            message.set(name, 7);
            break;
        case FieldType::Float64:
        case FieldType::UuidArray:
            break; // no setter: left at their defaults
        case FieldType::Uuid:
            message.set(name, QByteArray(16, 'u'));
            break;
        case FieldType::String:
            message.set(name, QStringLiteral("text"));
            break;
        case FieldType::Bytes:
            message.set(name, QByteArray("bytes"));
            break;
        case FieldType::Int16Array:
        case FieldType::Int32Array:
        case FieldType::Int64Array:
            message.set(name, QList<int64_t>{1, 2});
            break;
        case FieldType::StringArray:
            message.set(name, QStringList{QStringLiteral("a"), QStringLiteral("b")});
            break;
        case FieldType::Struct:
            fill(message.add(name), field.fields, version);
            break;
        case FieldType::StructArray:
            fill(message.add(name), field.fields, version);
            fill(message.add(name), field.fields, version);
            break;
        }
    }
}

QByteArray frameOf(const ApiSpec& api, int16_t version, const QByteArray& body) {
    WireWriter header;
    header.writeInt32(fuzz::fuzzCorrelationId);
    if (ResponseFrame::headerIsFlexible(api, version))
        header.writeUnsignedVarint(0);
    WireWriter frame;
    frame.writeInt32(int32_t(header.bytes().size() + body.size()));
    frame.writeRaw(header.bytes());
    frame.writeRaw(body);
    return frame.take();
}

void writeEncodedSeeds() {
    for (size_t i = 0; i < fuzz::protocolApiCount; ++i) {
        const ApiSpec& api = fuzz::protocolApiAt(i);
        for (const bool request : {true, false}) {
            const MessageSpec& spec = request ? api.request : api.response;
            for (const int16_t version : {spec.validVersions.first, spec.validVersions.last}) {
                Struct message = MessageCodec::make(spec);
                fill(message, spec.fields, version);
                const QByteArray body = MessageCodec::encode(spec, version, message);
                const ProtocolInputKind kind =
                    request ? ProtocolInputKind::RequestBody : ProtocolInputKind::ResponseBody;
                writeSeed(seedName("encoded", api, version, request ? "request" : "response"),
                          api.key, kind, version, body);
                if (request)
                    continue;
                const QByteArray frame = frameOf(api, version, body);
                writeSeed(seedName("encoded", api, version, "frame"), api.key,
                          ProtocolInputKind::ResponseFrame, version, frame);
                // The faults: cut short, and announcing more than it brings.
                writeSeed(seedName("fault-truncated", api, version, "frame"), api.key,
                          ProtocolInputKind::ResponseFrame, version, frame.first(frame.size() / 2));
                if (MessageCodec::isFlexible(spec, version) && body.endsWith('\0')) {
                    // An unknown tagged field (tag 1000, 3 bytes) where the top level's
                    // tagged fields are: a newer broker's field, skipped.
                    QByteArray tagged = body.chopped(1);
                    tagged.append(QByteArray("\x01\xe8\x07\x03xyz", 6));
                    writeSeed(seedName("fault-unknown-tag", api, version, "response"), api.key,
                              ProtocolInputKind::ResponseBody, version, tagged);
                }
            }
        }
    }
    // A frame over the size limit, and one below a header's size.
    const ApiSpec& describe = describeGroupsApi();
    WireWriter huge;
    huge.writeInt32(ResponseFrame::maximumSize + 1);
    huge.writeInt32(fuzz::fuzzCorrelationId);
    writeSeed(QStringLiteral("fault-over-size-limit-frame"), describe.key,
              ProtocolInputKind::ResponseFrame, 0, huge.bytes());
    WireWriter tiny;
    tiny.writeInt32(2);
    tiny.writeInt16(0);
    writeSeed(QStringLiteral("fault-under-header-size-frame"), describe.key,
              ProtocolInputKind::ResponseFrame, 0, tiny.bytes());
}

void captureFromBroker(const QString& bootstrap) {
    test::FaultyProxy proxy(bootstrap.split(u',').front());
    if (!proxy.start())
        qFatal("the proxy could not listen");
    proxy.setFrameObserver(captureFrame);
    kafka::ConnectionProfile profile;
    profile.bootstrapServers = proxy.address();
    auto client = kafka::GroupProtocolClient::create(profile, std::chrono::seconds(30));
    if (!client)
        qFatal("%s", qPrintable(client.error().message));
    const auto listed = client.value()->listGroups();
    if (!listed)
        qFatal("%s", qPrintable(listed.error().message));
    QStringList groups;
    QStringList shareGroups;
    for (const kafka::GroupListing& group : listed.value()) {
        if (groups.size() < 40)
            groups.append(group.groupId);
        if (group.type == kafka::GroupType::Share)
            shareGroups.append(group.groupId);
    }
    groups.append(QString()); // an invalid group id: the broker's answer for it
    std::printf("%lld groups listed\n", static_cast<long long>(listed.value().size()));
    (void)client.value()->describeGroups(groups);
    (void)client.value()->committedOffsets(groups);
    if (!shareGroups.isEmpty())
        (void)client.value()->shareStartOffsets(shareGroups);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication application(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: capture_protocol_corpus OUTPUT_DIRECTORY\n");
        return 2;
    }
    output = QDir(QString::fromLocal8Bit(argv[1]));
    if (!output.mkpath(QStringLiteral(".")))
        return 1;
    writeEncodedSeeds();
    if (const QString bootstrap = qEnvironmentVariable("GROUPSCOPE_TEST_BOOTSTRAP");
        !bootstrap.isEmpty())
        captureFromBroker(bootstrap);
    std::printf("%d seeds written to %s\n", written, argv[1]);
    return 0;
}
