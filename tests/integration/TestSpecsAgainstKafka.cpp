// Every message spec Groupscope speaks (core/kafka/protocol) against Kafka's own: the
// schemas of the generated message classes in the kafka-clients jar the test bed's broker
// runs, printed by tests/kafka/kafka-message-schemas. For every version of every request
// and response Groupscope can send or read, the fields must agree in name, order, type,
// nullability, flexible encoding and tag. A version Groupscope declares that the jar no
// longer has (removed from Kafka 4) is listed, not compared; Groupscope negotiates it with
// older brokers only.

#include "ProtocolApis.h"
#include "TestBroker.h"

#include <QHash>
#include <QTest>

#include <algorithm>

using namespace groupscope;
using namespace groupscope::kafka::protocol;

namespace {

const QString schemaTool = QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-message-schemas");

// Kafka's type name of a field in one version, as PrintMessageSchemas prints it.
QString kafkaTypeName(const FieldSpec& field, int16_t version, bool flexible) {
    const QString compact = flexible ? QStringLiteral("COMPACT_") : QString();
    const QString nullable =
        field.nullableVersions.contains(version) ? QStringLiteral("NULLABLE_") : QString();
    const auto array = [&](const QString& element) {
        return compact + nullable + QStringLiteral("ARRAY(") + element + u')';
    };
    switch (field.type) {
    case FieldType::Bool:
        return QStringLiteral("BOOLEAN");
    case FieldType::Int8:
        return QStringLiteral("INT8");
    case FieldType::Int16:
        return QStringLiteral("INT16");
    case FieldType::Uint16:
        return QStringLiteral("UINT16");
    case FieldType::Int32:
        return QStringLiteral("INT32");
    case FieldType::Int64:
        return QStringLiteral("INT64");
    case FieldType::Float64:
        return QStringLiteral("FLOAT64");
    case FieldType::Uuid:
        return QStringLiteral("UUID");
    case FieldType::String:
        return compact + nullable + QStringLiteral("STRING");
    case FieldType::Bytes:
        return compact + nullable + QStringLiteral("BYTES");
    case FieldType::Int16Array:
        return array(QStringLiteral("INT16"));
    case FieldType::Int32Array:
        return array(QStringLiteral("INT32"));
    case FieldType::Int64Array:
        return array(QStringLiteral("INT64"));
    case FieldType::StringArray:
        return array(compact + QStringLiteral("STRING"));
    case FieldType::UuidArray:
        return array(QStringLiteral("UUID"));
    case FieldType::Struct:
        return nullable + QStringLiteral("STRUCT");
    case FieldType::StructArray:
        return array(QStringLiteral("STRUCT"));
    }
    return QStringLiteral("?");
}

void describeFields(const std::vector<FieldSpec>& fields, int16_t version, bool flexible,
                    const QString& prefix, const QString& path, QStringList& lines) {
    const auto describe = [&](const FieldSpec& field, const QString& suffix) {
        const QString fieldPath = path + QString::fromLatin1(field.name).toLower();
        lines.append(prefix + u' ' + fieldPath + u' ' + kafkaTypeName(field, version, flexible) +
                     suffix);
        if (field.type == FieldType::Struct || field.type == FieldType::StructArray)
            describeFields(field.fields, version, flexible, prefix, fieldPath + u'.', lines);
    };
    std::vector<const FieldSpec*> tagged;
    for (const FieldSpec& field : fields) {
        if (!field.versions.contains(version))
            continue;
        if (flexible && field.taggedVersions.contains(version))
            tagged.push_back(&field);
        else
            describe(field, {});
    }
    // Kafka's schemas put the tagged fields last, by tag.
    std::sort(tagged.begin(), tagged.end(),
              [](const FieldSpec* a, const FieldSpec* b) { return a->tag < b->tag; });
    for (const FieldSpec* field : tagged)
        describe(*field, QStringLiteral(" tag=%1").arg(field->tag));
}

// Groupscope's spec of one version in PrintMessageSchemas' form.
QStringList describeVersion(const MessageSpec& spec, int16_t version) {
    QStringList lines;
    const QString prefix =
        QStringLiteral("%1 v%2").arg(QString::fromLatin1(spec.name)).arg(version);
    describeFields(spec.fields, version, spec.flexibleVersions.contains(version), prefix, {},
                   lines);
    return lines;
}

} // namespace

class TestSpecsAgainstKafka : public QObject {
    Q_OBJECT

private slots:
    void everySpecIsKafkasOwn() {
        const QList<const MessageSpec*> specs = test::everyMessageSpec();
        QStringList names;
        for (const MessageSpec* spec : specs)
            names.append(QString::fromLatin1(spec->name));
        const test::ProcessResult printed = test::run(schemaTool, names);
        QVERIFY2(printed.ok(), printed.err.constData());

        // Kafka's lines per "MESSAGE vN".
        QHash<QString, QStringList> kafka;
        QSet<QString> removed;
        for (const QString& line :
             QString::fromUtf8(printed.out).split(u'\n', Qt::SkipEmptyParts)) {
            const QStringList words = line.split(u' ');
            const QString key = words.mid(0, 2).join(u' ');
            if (words.size() == 2)
                kafka[key]; // the version's first line: it exists, maybe without fields
            else if (words.value(2) == u"removed")
                removed.insert(key);
            else
                kafka[key].append(line);
        }

        QStringList differences;
        QStringList notInKafka44;
        int compared = 0;
        for (const MessageSpec* spec : std::as_const(specs)) {
            for (int16_t version = spec->validVersions.first; version <= spec->validVersions.last;
                 ++version) {
                const QString key =
                    QStringLiteral("%1 v%2").arg(QString::fromLatin1(spec->name)).arg(version);
                if (removed.contains(key)) {
                    notInKafka44.append(key);
                    continue;
                }
                if (!kafka.contains(key)) {
                    differences.append(key + QStringLiteral(": Kafka has no such version"));
                    continue;
                }
                ++compared;
                const QStringList ours = describeVersion(*spec, version);
                const QStringList theirs = kafka.value(key);
                if (ours == theirs)
                    continue;
                // The first line that differs, both sides, is enough to find it.
                qsizetype at = 0;
                while (at < ours.size() && at < theirs.size() && ours[at] == theirs[at])
                    ++at;
                differences.append(QStringLiteral("%1: ours \"%2\", Kafka's \"%3\"")
                                       .arg(key, ours.value(at, QStringLiteral("(end)")),
                                            theirs.value(at, QStringLiteral("(end)"))));
            }
        }
        qInfo("%d message versions compared with Kafka's; %d declared that Kafka 4.4 removed "
              "(kept for older brokers): %s",
              compared, int(notInKafka44.size()), qPrintable(notInKafka44.join(u',')));
        for (const QString& difference : std::as_const(differences))
            qWarning("%s", qPrintable(difference));
        QVERIFY2(differences.isEmpty(),
                 qPrintable(QStringLiteral("%1 message versions differ").arg(differences.size())));
        QVERIFY(compared > 50);
    }
};

QTEST_GUILESS_MAIN(TestSpecsAgainstKafka)
#include "TestSpecsAgainstKafka.moc"
