#include "offsets/OffsetsCsv.h"

#include <QTemporaryDir>
#include <QTest>

using namespace groupscope::offsets;

class TestOffsetsCsv : public QObject {
    Q_OBJECT
private slots:
    void readsKafkaFormats() {
        const auto three = OffsetsCsv::parse("orders,0,5\norders,1,7\n", QStringLiteral("f.csv"),
                                             {QStringLiteral("g")});
        QVERIFY(three.ok());
        QCOMPARE(three.value().size(), 2);
        QCOMPARE(three.value()[1].groupId, QStringLiteral("g"));
        QCOMPARE(three.value()[1].topicPartition.partition, 1);
        QCOMPARE(three.value()[1].offset, int64_t(7));
        QCOMPARE(three.value()[1].line, 2);

        const auto four = OffsetsCsv::parse("\xEF\xBB\xBFg1,orders,0,5\r\ng2,orders,0,9\r\n",
                                            QStringLiteral("f.csv"),
                                            {QStringLiteral("g1"), QStringLiteral("g2")});
        QVERIFY2(four.ok(), qPrintable(four.ok() ? QString() : four.error().message));
        QCOMPARE(four.value()[0].groupId, QStringLiteral("g1")); // the BOM is not part of the name
        QCOMPARE(four.value()[1].offset, int64_t(9));
    }

    void readsKafkasQuotedExport() {
        // kafka-consumer-groups --export quotes values longer than 24 characters.
        const auto parsed = OffsetsCsv::parse(
            "\"a-group-with-a-long-name-1\",orders,0,5\n\"g,\"\"odd\"\"\",orders,1,6\n",
            QStringLiteral("f.csv"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message));
        QCOMPARE(parsed.value()[0].groupId, QStringLiteral("a-group-with-a-long-name-1"));
        QCOMPARE(parsed.value()[1].groupId, QStringLiteral("g,\"odd\""));
        // Written back byte for byte as Kafka wrote it.
        QCOMPARE(OffsetsCsv::write(parsed.value(), true),
                 QByteArray("\"a-group-with-a-long-name-1\",orders,0,5\n\"g,\"\"odd\"\"\",orders,1,"
                            "6\n"));
    }

    void quotesExactlyLikeKafkasExport() {
        // Observed with kafka-consumer-groups 3.9 --export (Jackson's CSV encoder): values
        // over 24 characters and values with a character below '-' are quoted, others not.
        const QList<OffsetsCsvRow> rows{
            {QStringLiteral("123456789012345678901234"), {QStringLiteral("t"), 0}, 1, 0},
            {QStringLiteral("1234567890123456789012345"), {QStringLiteral("t"), 0}, 1, 0},
            {QStringLiteral("i5 g"), {QStringLiteral("t"), 0}, 1, 0},
            {QStringLiteral("i5+g"), {QStringLiteral("t"), 0}, 1, 0},
            {QStringLiteral("i5/g"), {QStringLiteral("i5-export-check-long-topic-name"), 0}, 0, 0}};
        QCOMPARE(OffsetsCsv::write(rows, true),
                 QByteArray("123456789012345678901234,t,0,1\n"
                            "\"1234567890123456789012345\",t,0,1\n"
                            "\"i5 g\",t,0,1\n"
                            "\"i5+g\",t,0,1\n"
                            "i5/g,\"i5-export-check-long-topic-name\",0,0\n"));
    }

    void acceptsKafkasExportTrailer() {
        // Kafka's --export ends with an empty line after the rows.
        const auto parsed = OffsetsCsv::parse("t,0,1\n\"t-with-a-rather-long-topic-name\",1,2\n\n",
                                              QStringLiteral("f.csv"), {QStringLiteral("g")});
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message));
        QCOMPARE(parsed.value().size(), 2);
        QCOMPARE(parsed.value()[1].topicPartition.topic,
                 QStringLiteral("t-with-a-rather-long-topic-name"));
    }

    void writesWhatItCanReadBack() {
        // Found by the fuzzer: a group id starting with U+FEFF was written bare and read back
        // as a byte order mark; surrounding spaces were written bare and then refused.
        const QList<OffsetsCsvRow> rows{
            {QString(QChar(0xFEFF)) + QStringLiteral("g"), {QStringLiteral("t"), 0}, 5, 0},
            {QStringLiteral(" spaced "), {QStringLiteral("t"), 1}, 6, 0},
            // Unicode white space that Kafka's quoting rule (characters below '-') misses.
            {QStringLiteral("g") + QChar(0x3000), {QStringLiteral("t"), 2}, 7, 0},
            {QString(QChar(0x00A0)) + QStringLiteral("g"), {QStringLiteral("t"), 3}, 8, 0}};
        const auto parsed =
            OffsetsCsv::parse(OffsetsCsv::write(rows, true), QStringLiteral("w.csv"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message));
        QCOMPARE(parsed.value()[0].groupId, rows[0].groupId);
        QCOMPARE(parsed.value()[1].groupId, rows[1].groupId);
        QCOMPARE(parsed.value()[2].groupId, rows[2].groupId);
        QCOMPARE(parsed.value()[3].groupId, rows[3].groupId);
    }

    void roundTrip() {
        const QList<OffsetsCsvRow> rows{
            {QStringLiteral("g"), {QStringLiteral("a.b_c-d"), 3}, 9223372036854775807, 0},
            {QStringLiteral("g"), {QStringLiteral("x"), 0}, 0, 0}};
        for (bool withGroup : {false, true}) {
            const QByteArray text = OffsetsCsv::write(rows, withGroup);
            const auto parsed = OffsetsCsv::parse(text, QStringLiteral("t"), {QStringLiteral("g")});
            QVERIFY(parsed.ok());
            QCOMPARE(parsed.value().size(), 2);
            QCOMPARE(parsed.value()[0].offset, rows[0].offset);
            QCOMPARE(parsed.value()[0].topicPartition, rows[0].topicPartition);
        }
        QCOMPARE(OffsetsCsv::write(rows, false),
                 QByteArray("a.b_c-d,3,9223372036854775807\nx,0,0\n"));
    }

    void rejects_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("groups");
        QTest::addColumn<QString>("message");
        const QStringList one{QStringLiteral("g")};
        QTest::newRow("empty") << QByteArray() << one
                               << QStringLiteral("f.csv: the file has no rows");
        QTest::newRow("only newline")
            << QByteArray("\n") << one << QStringLiteral("f.csv:1: empty line");
        QTest::newRow("blank line inside")
            << QByteArray("t,0,1\n\nt,1,1\n") << one << QStringLiteral("f.csv:2: empty line");
        QTest::newRow("two columns")
            << QByteArray("t,0\n") << one << QStringLiteral("f.csv:1: expected 3 columns");
        QTest::newRow("five columns")
            << QByteArray("g,t,0,1,2\n") << one << QStringLiteral("found 5");
        QTest::newRow("mixed columns") << QByteArray("t,0,1\ng,t,1,1\n") << one
                                       << QStringLiteral("f.csv:2: has 4 columns but line 1 has 3");
        QTest::newRow("non-numeric partition")
            << QByteArray("t,x,1\n") << one
            << QStringLiteral("f.csv:1: column 2: partition \"x\" is not a whole number");
        QTest::newRow("negative partition")
            << QByteArray("t,-1,1\n") << one
            << QStringLiteral("column 2: partition -1 is out of range");
        QTest::newRow("partition overflow")
            << QByteArray("t,2147483648,1\n") << one
            << QStringLiteral("column 2: partition 2147483648 is out of range");
        QTest::newRow("non-numeric offset")
            << QByteArray("t,0,1e3\n") << one
            << QStringLiteral("column 3: offset \"1e3\" is not a whole number");
        QTest::newRow("negative offset")
            << QByteArray("t,0,-1\n") << one << QStringLiteral("column 3: offset -1 is negative");
        QTest::newRow("offset overflow") << QByteArray("t,0,9223372036854775808\n") << one
                                         << QStringLiteral("does not fit in 64 bits");
        QTest::newRow("bad topic")
            << QByteArray("bad topic,0,1\n") << one
            << QStringLiteral("column 1: \"bad topic\" is not a valid topic name");
        QTest::newRow("spaces") << QByteArray("t, 0,1\n") << one
                                << QStringLiteral("column 2: spaces around");
        QTest::newRow("duplicate")
            << QByteArray("t,0,1\nu,0,1\nt,0,2\n") << one
            << QStringLiteral("f.csv:3: duplicate row for group 'g' t:0 (first on line 1)");
        QTest::newRow("other group") << QByteArray("h,t,0,1\n") << one
                                     << QStringLiteral("f.csv:1: column 1: row for group 'h'");
        QTest::newRow("3 columns, 2 groups")
            << QByteArray("t,0,1\n") << QStringList{QStringLiteral("a"), QStringLiteral("b")}
            << QStringLiteral("3-column rows name no group");
        QTest::newRow("invalid utf-8")
            << QByteArray("t\xff,0,1\n") << one << QStringLiteral("not valid UTF-8");
        QTest::newRow("unterminated quote")
            << QByteArray("\"t,0,1\n") << one << QStringLiteral("column 1: unterminated quote");
        QTest::newRow("text after quote")
            << QByteArray("\"t\"x,0,1\n") << one
            << QStringLiteral("column 1: text after the closing quote");
        QTest::newRow("stray quote") << QByteArray("t,0\"1,1\n") << one
                                     << QStringLiteral("f.csv:1: column 2: a quote inside");
        QTest::newRow("quoted bad topic")
            << QByteArray("\"t t\",0,1\n") << one << QStringLiteral("is not a valid topic name");
    }
    void rejects() {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, groups);
        QFETCH(QString, message);
        const auto parsed = OffsetsCsv::parse(content, QStringLiteral("f.csv"), groups);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().message.contains(message), qPrintable(parsed.error().message));
    }

    void refusesHugeFilesUnread() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(100 * 1024 * 1024));
        file.close();
        const auto parsed = OffsetsCsv::readFile(path, {QStringLiteral("g")});
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().message.contains(QStringLiteral("100.0 MiB")),
                 qPrintable(parsed.error().message));
        QVERIFY(!OffsetsCsv::readFile(dir.filePath(QStringLiteral("absent.csv"))).ok());
    }
};

QTEST_GUILESS_MAIN(TestOffsetsCsv)
#include "TestOffsetsCsv.moc"
