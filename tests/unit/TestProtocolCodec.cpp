// The declarative codec of the group protocol client: bytes written by hand from Kafka's
// protocol guide for known messages, round trips of every described API's newest version,
// hostile input (truncation, huge counts, unknown tags, nesting), and SCRAM's RFC 7677
// test vector.
#include "ProtocolApis.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ResponseFrame.h"
#include "kafka/protocol/ScramClient.h"
#include "kafka/protocol/WireWriter.h"

#include <QSet>
#include <QTest>

#include <functional>

using namespace groupscope::kafka;
using namespace groupscope::kafka::protocol;

// QVERIFY2 evaluates its message even when the check passes: the error only if there is one.
template <typename T> QString failureOf(const groupscope::kafka::Result<T>& result) {
    return result.ok() ? QString() : result.error().message;
}

namespace {

const QString broker = QStringLiteral("127.0.0.1:9092");

// A response frame as a broker sends it: size prefix, header (correlation id, then the
// header's tagged fields when `flexibleHeader`), body.
QByteArray responseFrame(int32_t correlationId, bool flexibleHeader, const QByteArray& body,
                         const QByteArray& headerTags = QByteArray(1, '\0')) {
    WireWriter header;
    header.writeInt32(correlationId);
    if (flexibleHeader)
        header.writeRaw(headerTags);
    WireWriter frame;
    frame.writeInt32(int32_t(header.bytes().size() + body.size()));
    frame.writeRaw(header.bytes());
    frame.writeRaw(body);
    return frame.take();
}

QByteArray listGroupsV5Answer() {
    const MessageSpec& spec = listGroupsApi().response;
    Struct answer = MessageCodec::make(spec);
    answer.add("Groups").set("GroupId", QStringLiteral("orders"));
    return MessageCodec::encode(spec, 5, answer);
}

} // namespace

class TestProtocolCodec : public QObject {
    Q_OBJECT

private slots:
    void init() {
        // A field name the schema lacks is a bug in Groupscope's code, reported as a warning.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("protocol::Struct")));
    }

    void listGroupsV5RequestIsTwoEmptyCompactArraysAndNoTags() {
        const ApiSpec& api = listGroupsApi();
        Struct request = MessageCodec::make(api.request);
        QCOMPARE(MessageCodec::encode(api.request, 5, request), QByteArray("\x01\x01\x00", 3));
        request.set("TypesFilter", QStringList{QStringLiteral("share")});
        // StatesFilter empty (1), TypesFilter one element (2), "share" as length+1 (6).
        QCOMPARE(MessageCodec::encode(api.request, 5, request),
                 QByteArray("\x01\x02\x06share\x00", 9));
        // Version 3 has neither filter; still flexible: only the tag count.
        QCOMPARE(MessageCodec::encode(api.request, 3, request), QByteArray("\x00", 1));
    }

    void findCoordinatorV3UsesTheSingleKeyAndV4TheBatch() {
        const ApiSpec& api = findCoordinatorApi();
        Struct request = MessageCodec::make(api.request);
        request.set("Key", QStringLiteral("g"));
        request.set("CoordinatorKeys", QStringList{QStringLiteral("a"), QStringLiteral("b")});
        // v1 (classic): int16 length "g", KeyType int8.
        QCOMPARE(MessageCodec::encode(api.request, 1, request), QByteArray("\x00\x01g\x00", 4));
        // v4: KeyType, compact array of 2 compact strings, no tags.
        QCOMPARE(MessageCodec::encode(api.request, 4, request), QByteArray("\x00\x03\x02"
                                                                           "a\x02"
                                                                           "b\x00",
                                                                           7));
    }

    void decodesADescribeGroupsAnswerWrittenByHand() {
        // DescribeGroups v0: [groups] error, id, state, protocol type, protocol, [members].
        QByteArray bytes;
        bytes += QByteArray("\x00\x00\x00\x01", 4);      // one group
        bytes += QByteArray("\x00\x00", 2);              // error code 0
        bytes += QByteArray("\x00\x02", 2) + "g1";       // group id
        bytes += QByteArray("\x00\x06", 2) + "Stable";   // state
        bytes += QByteArray("\x00\x08", 2) + "consumer"; // protocol type
        bytes += QByteArray("\x00\x05", 2) + "range";    // protocol data
        bytes += QByteArray("\x00\x00\x00\x00", 4);      // no members
        const Result<Struct> decoded = MessageCodec::decode(describeGroupsApi().response, 0, bytes);
        QVERIFY2(decoded.ok(), qPrintable(failureOf(decoded)));
        const StructList& groups = decoded.value().structs("Groups");
        QCOMPARE(groups.size(), size_t(1));
        QCOMPARE(groups[0].string("GroupId"), QStringLiteral("g1"));
        QCOMPARE(groups[0].string("GroupState"), QStringLiteral("Stable"));
        QCOMPARE(groups[0].string("ProtocolData"), QStringLiteral("range"));
        QVERIFY(groups[0].structs("Members").empty());
    }

    void everyKnownFieldNameIsInASpec() {
        // FieldName accepts the names of knownFieldNames only; each of them must be a field
        // of some spec (and every spec field is one of them, or its spec does not build).
        QSet<QString> used;
        const std::function<void(const std::vector<FieldSpec>&)> collect =
            [&](const std::vector<FieldSpec>& fields) {
                for (const FieldSpec& field : fields) {
                    used.insert(QString::fromLatin1(field.name));
                    collect(field.fields);
                }
            };
        for (const MessageSpec* spec : groupscope::test::everyMessageSpec())
            collect(spec->fields);
        QSet<QString> known;
        for (const char* name : knownFieldNames)
            known.insert(QString::fromLatin1(name));
        QCOMPARE(known - used, QSet<QString>());
        QCOMPARE(used - known, QSet<QString>());
    }

    void everyApiRoundTripsItsNewestVersion() {
        for (const ApiSpec* api : groupscope::test::everyProtocolApi()) {
            for (const MessageSpec* spec : {&api->request, &api->response}) {
                const int16_t version = spec->validVersions.last;
                // Fill every top-level field with a non-default value of its type.
                Struct message = MessageCodec::make(*spec);
                for (const FieldSpec& field : spec->fields) {
                    if (!field.versions.contains(version))
                        continue;
                    const FieldName name = FieldName::fromSpec(field.name);
                    switch (field.type) {
                    case FieldType::Int8:
                    case FieldType::Int16:
                    case FieldType::Uint16:
                    case FieldType::Int32:
                    case FieldType::Int64:
                        message.set(name, 7);
                        break;
                    case FieldType::Bool:
                        message.setBool(name, true);
                        break;
                    case FieldType::String:
                        message.set(name, QStringLiteral("text"));
                        break;
                    case FieldType::StringArray:
                        message.set(name, QStringList{QStringLiteral("a")});
                        break;
                    case FieldType::StructArray:
                        message.add(name);
                        break;
                    default:
                        break;
                    }
                }
                const QByteArray bytes = MessageCodec::encode(*spec, version, message);
                const Result<Struct> decoded = MessageCodec::decode(*spec, version, bytes);
                QVERIFY2(decoded.ok(), qPrintable(QString::fromLatin1(spec->name) +
                                                  QStringLiteral(": ") + failureOf(decoded)));
                QCOMPARE(MessageCodec::encode(*spec, version, decoded.value()), bytes);
            }
        }
    }

    void taggedFieldsAreWrittenWhenSetAndUnknownTagsSkipped() {
        const MessageSpec& spec = apiVersionsApi().response;
        Struct answer = MessageCodec::make(spec);
        answer.add("ApiKeys").set("ApiKey", 18).set("MinVersion", 0).set("MaxVersion", 4);
        answer.set("FinalizedFeaturesEpoch", 42);
        QByteArray bytes = MessageCodec::encode(spec, 3, answer);
        Result<Struct> decoded = MessageCodec::decode(spec, 3, bytes);
        QVERIFY(decoded.ok());
        QCOMPARE(decoded.value().integer("FinalizedFeaturesEpoch"), int64_t(42));
        // Not set: the default (-1), and not written at all.
        Struct bare = MessageCodec::make(spec);
        decoded = MessageCodec::decode(spec, 3, MessageCodec::encode(spec, 3, bare));
        QCOMPARE(decoded.value().integer("FinalizedFeaturesEpoch"), int64_t(-1));

        // A newer broker's tag 9 (3 bytes) after ours: skipped, the rest still read.
        QByteArray withUnknown = MessageCodec::encode(spec, 3, bare);
        withUnknown.chop(1); // the tag count 0
        withUnknown += QByteArray("\x01\x09\x03xyz", 6);
        decoded = MessageCodec::decode(spec, 3, withUnknown);
        QVERIFY2(decoded.ok(), qPrintable(failureOf(decoded)));
    }

    void nullableStructsCarryAMarkerByte() {
        const MessageSpec& spec = streamsGroupDescribeApi().response;
        Struct answer = MessageCodec::make(spec);
        Struct& group = answer.add("Groups");
        group.set("GroupId", QStringLiteral("s1"));
        group.setNull("Topology");
        Struct& member = group.add("Members");
        member.set("MemberId", QStringLiteral("m1"));
        member.add("UserEndpoint").set("Host", QStringLiteral("h")).set("Port", 80);
        const QByteArray bytes = MessageCodec::encode(spec, 0, answer);
        const Result<Struct> decoded = MessageCodec::decode(spec, 0, bytes);
        QVERIFY2(decoded.ok(), qPrintable(failureOf(decoded)));
        const Struct& decodedGroup = decoded.value().structs("Groups").front();
        QVERIFY(decodedGroup.isNull("Topology"));
        const Struct& decodedMember = decodedGroup.structs("Members").front();
        QCOMPARE(decodedMember.child("UserEndpoint").integer("Port"), int64_t(80));
        QCOMPARE(decodedMember.child("UserEndpoint").string("Host"), QStringLiteral("h"));
    }

    void truncatedAnswersNameTheFieldAndByte() {
        const MessageSpec& spec = describeGroupsApi().response;
        Struct answer = MessageCodec::make(spec);
        answer.add("Groups").set("GroupId", QStringLiteral("orders"));
        const QByteArray bytes = MessageCodec::encode(spec, 5, answer);
        for (int cut = 1; cut < bytes.size(); ++cut) {
            const Result<Struct> decoded = MessageCodec::decode(spec, 5, bytes.left(cut));
            QVERIFY2(!decoded.ok(), qPrintable(QStringLiteral("cut at %1 decoded").arg(cut)));
            QVERIFY(decoded.error().message.contains(u"malformed DescribeGroupsResponse v5"));
        }
        const Result<Struct> extra = MessageCodec::decode(spec, 5, bytes + "x");
        QVERIFY(!extra.ok());
        QVERIFY(extra.error().message.contains(u"unexpected bytes"));
    }

    // An OffsetFetch answer read group by group gives the groups decode() gives, in order,
    // and keeps none of them; cut short anywhere, it fails with decode()'s error, having
    // handed over only groups decoded whole.
    void aStreamedArrayGivesEachElementAsDecodeDoes() {
        const MessageSpec& spec = offsetFetchApi().response;
        const int16_t version = 9;
        Struct answer = MessageCodec::make(spec);
        for (int g = 0; g < 3; ++g) {
            Struct& group = answer.add("Groups").set("GroupId", QStringLiteral("group-%1").arg(g));
            Struct& topic = group.add("Topics").set("Name", QStringLiteral("orders"));
            for (int p = 0; p <= g; ++p)
                topic.add("Partitions").set("PartitionIndex", p).set("CommittedOffset", 10 * g + p);
        }
        const QByteArray bytes = MessageCodec::encode(spec, version, answer);
        const Result<Struct> whole = MessageCodec::decode(spec, version, bytes);
        QVERIFY2(whole.ok(), qPrintable(failureOf(whole)));

        QList<Struct> handed;
        const MessageCodec::StreamedArray streamed{
            "Groups", [&handed](const Struct& group) { handed.append(group); }};
        const Result<Struct> rest = MessageCodec::decodeStreaming(spec, version, bytes, streamed);
        QVERIFY2(rest.ok(), qPrintable(failureOf(rest)));
        QVERIFY(rest.value().structs("Groups").empty());
        const StructList& expected = whole.value().structs("Groups");
        QCOMPARE(handed.size(), qsizetype(expected.size()));
        for (qsizetype g = 0; g < handed.size(); ++g)
            QCOMPARE(MessageCodec::encode(spec, version,
                                          Struct(&spec.fields).set("Groups", {handed[g]})),
                     MessageCodec::encode(
                         spec, version, Struct(&spec.fields).set("Groups", {expected[size_t(g)]})));

        for (int cut = 1; cut < bytes.size(); ++cut) {
            handed.clear();
            const Result<Struct> cutShort =
                MessageCodec::decodeStreaming(spec, version, bytes.left(cut), streamed);
            const Result<Struct> cutWhole = MessageCodec::decode(spec, version, bytes.left(cut));
            QVERIFY2(!cutShort.ok(), qPrintable(QStringLiteral("cut at %1 decoded").arg(cut)));
            QCOMPARE(cutShort.error().message, cutWhole.error().message);
            for (const Struct& group : handed)
                QCOMPARE(group.structs("Topics").front().structs("Partitions").size(),
                         size_t(group.string("GroupId").back().digitValue() + 1));
        }

        const MessageCodec::StreamedArray notAnArray{"ThrottleTimeMs", streamed.element};
        QVERIFY(!MessageCodec::decodeStreaming(spec, version, bytes, notAnArray).ok());
    }

    void hugeCountsAreRefusedBeforeAllocating() {
        // ListGroups v4 (flexible): throttle, error, then a compact array claiming 2^31.
        QByteArray bytes("\x00\x00\x00\x00\x00\x00", 6);
        bytes += QByteArray("\xff\xff\xff\xff\x07", 5);
        const Result<Struct> decoded = MessageCodec::decode(listGroupsApi().response, 4, bytes);
        QVERIFY(!decoded.ok());
        QVERIFY2(decoded.error().message.contains(u"cannot fit"), qPrintable(failureOf(decoded)));
    }

    void versionsOutsideTheSpecAreRefused() {
        const Result<Struct> decoded =
            MessageCodec::decode(describeGroupsApi().response, 99, QByteArray());
        QVERIFY(!decoded.ok());
        QVERIFY(decoded.error().message.contains(u"version 99"));
    }

    void responseFramesAreReadWithTheirHeader() {
        // ListGroups v5 has the flexible response header: its tagged fields are skipped,
        // a header field of a newer broker included.
        const QByteArray frame =
            responseFrame(7, true, listGroupsV5Answer(), QByteArray("\x01\x05\x02zz", 5));
        const Result<Struct> read = ResponseFrame::parse(frame, listGroupsApi(), 5, 7, broker);
        QVERIFY2(read.ok(), qPrintable(failureOf(read)));
        QCOMPARE(read.value().structs("Groups").front().string("GroupId"),
                 QStringLiteral("orders"));
        // ApiVersions answers with the classic header in its flexible versions too.
        const MessageSpec& versions = apiVersionsApi().response;
        const QByteArray body = MessageCodec::encode(versions, 3, MessageCodec::make(versions));
        QVERIFY(ResponseFrame::parse(responseFrame(1, false, body), apiVersionsApi(), 3, 1, broker)
                    .ok());
        QVERIFY(!ResponseFrame::parse(responseFrame(1, true, body), apiVersionsApi(), 3, 1, broker)
                     .ok());
    }

    void responseFramesOfTheWrongSizeAreRefused() {
        const QByteArray frame = responseFrame(7, true, listGroupsV5Answer());
        for (int cut = 0; cut < frame.size(); ++cut) {
            const Result<Struct> read =
                ResponseFrame::parse(frame.left(cut), listGroupsApi(), 5, 7, broker);
            QVERIFY2(!read.ok(), qPrintable(QStringLiteral("cut at %1 was read").arg(cut)));
            QVERIFY2(read.error().message.contains(broker), qPrintable(failureOf(read)));
        }
        QVERIFY(!ResponseFrame::parse(frame + "x", listGroupsApi(), 5, 7, broker).ok());
    }

    void framesOverTheSizeLimitAreRefusedBeforeReading() {
        WireWriter size;
        size.writeInt32(ResponseFrame::maximumSize + 1);
        const Result<int32_t> over = ResponseFrame::parseSize(size.bytes(), broker);
        QVERIFY(!over.ok());
        QVERIFY2(over.error().message.contains(u"limit"), qPrintable(failureOf(over)));
        WireWriter limit;
        limit.writeInt32(ResponseFrame::maximumSize);
        QCOMPARE(ResponseFrame::parseSize(limit.bytes(), broker).value(),
                 ResponseFrame::maximumSize);
        // Below a correlation id's 4 bytes, and negative.
        for (const int32_t bad : {0, 3, -1, INT32_MIN}) {
            WireWriter small;
            small.writeInt32(bad);
            QVERIFY2(!ResponseFrame::parseSize(small.bytes(), broker).ok(),
                     qPrintable(QString::number(bad)));
        }
    }

    void anAnswerToAnotherRequestIsRefused() {
        const QByteArray frame = responseFrame(8, true, listGroupsV5Answer());
        const Result<Struct> read = ResponseFrame::parse(frame, listGroupsApi(), 5, 7, broker);
        QVERIFY(!read.ok());
        QVERIFY2(read.error().message.contains(u"correlation id 8, expected 7"),
                 qPrintable(failureOf(read)));
        // A body that does not decode names the broker too.
        const Result<Struct> garbage =
            ResponseFrame::parse(responseFrame(7, true, "\xff"), listGroupsApi(), 5, 7, broker);
        QVERIFY(!garbage.ok());
        QVERIFY2(garbage.error().message.contains(u"malformed ListGroupsResponse v5") &&
                     garbage.error().message.contains(broker),
                 qPrintable(failureOf(garbage)));
    }

    void scramMatchesRfc7677() {
        ScramClient scram(ScramClient::Hash::Sha256, QStringLiteral("user"),
                          QStringLiteral("pencil"), "rOprNGfwEbeRWgbNEkqO");
        QCOMPARE(scram.clientFirstMessage(), QByteArray("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"));
        const Result<QByteArray> final = scram.clientFinalMessage(
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,"
            "i=4096");
        QVERIFY(final.ok());
        QCOMPARE(final.value(),
                 QByteArray("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)"
                            "hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
        QVERIFY(
            scram.verifyServerFinalMessage("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=").ok());
        QVERIFY(
            !scram.verifyServerFinalMessage("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=").ok());
        // A nonce that does not extend ours is refused (a replayed or forged exchange).
        ScramClient other(ScramClient::Hash::Sha256, QStringLiteral("user"),
                          QStringLiteral("pencil"), "abc");
        QVERIFY(!other.clientFinalMessage("r=xyz123,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096").ok());
    }
};

QTEST_APPLESS_MAIN(TestProtocolCodec)
#include "TestProtocolCodec.moc"
