// The Records view's reader (RecordBrowser on a live ConsumerSession) through faults, on a
// broker of its own (it is stopped and restarted here, never the shared one):
//   - Follow goes on through a broker restart: the records produced after it arrive, each
//     once, none missing;
//   - a topic deleted while shown is said to be gone by the next read, and once it is
//     recreated a new read shows the new topic's records.

#include "TestBroker.h"

#include "kafka/AdminClient.h"
#include "records/RecordBrowser.h"
#include "records/RecordWindow.h"

#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

QList<int64_t> offsetsOf(const QList<records::Record>& records) {
    QList<int64_t> offsets;
    for (const records::Record& record : records)
        offsets.append(record.offset);
    return offsets;
}

QList<int64_t> range(int64_t from, int64_t to) {
    QList<int64_t> offsets;
    for (int64_t offset = from; offset < to; ++offset)
        offsets.append(offset);
    return offsets;
}

} // namespace

class TestRecordsFaults : public QObject {
    Q_OBJECT

    test::TestBedDirectory m_bed;
    QString m_bootstrap;

    records::RecordBrowser::Options options() const {
        records::RecordBrowser::Options options;
        options.profile.bootstrapServers = m_bootstrap;
        options.timeout = 10s;
        return options;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_bed.start({}, "GROUPSCOPE_TEST_RECORDS_BROKER_DIR",
                             QStringLiteral("records test broker"), 240s),
                 qPrintable(m_bed.error()));
        m_bootstrap = m_bed.firstLineOf(QStringLiteral("bootstrap"));
        QVERIFY(!m_bootstrap.isEmpty());
    }

    void cleanupTestCase() { m_bed.stop(); }

    void followGoesOnThroughABrokerRestart() {
        const QString topic = test::uniqueName(QStringLiteral("follow-restart"));
        QVERIFY(test::createTopic(topic, 1, m_bootstrap));
        QVERIFY(test::produce(topic, 5, 0, m_bootstrap));
        auto browser = records::RecordBrowser::open({topic, 0}, 0, options());
        QVERIFY2(browser.ok(), browser ? "" : qPrintable(browser.error().toString()));
        const auto first = browser.value()->readFrom(0, 5, 5);
        QVERIFY2(first.ok(), first ? "" : qPrintable(first.error().toString()));
        QCOMPARE(offsetsOf(first.value()), range(0, 5));

        const auto restarted = m_bed.broker(QStringLiteral("restart"), {}, 180s);
        QVERIFY2(restarted.ok(), restarted.err.constData());
        QVERIFY(test::produce(topic, 5, 0, m_bootstrap));
        QList<records::Record> followed;
        QVERIFY2(test::waitFor(
                     [&] {
                         followed += browser.value()->takeNew(200ms, 100);
                         return followed.size() >= 5;
                     },
                     90s),
                 qPrintable(QString::number(followed.size())));
        // A moment more for anything that would come twice.
        followed += browser.value()->takeNew(1s, 100);
        QCOMPARE(offsetsOf(followed), range(5, 10));
    }

    void aTopicDeletedWhileShownSaysSoThenItsSuccessorIsRead() {
        const QString topic = test::uniqueName(QStringLiteral("recreated"));
        QVERIFY(test::createTopic(topic, 1, m_bootstrap));
        QVERIFY(test::produce(topic, 3, 0, m_bootstrap));
        auto browser = records::RecordBrowser::open({topic, 0}, 0, options());
        QVERIFY2(browser.ok(), browser ? "" : qPrintable(browser.error().toString()));
        QCOMPARE(offsetsOf(browser.value()->readFrom(0, 3, 3).value()), range(0, 3));

        const auto deleted = test::runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
admin.delete_topics(['%1'])
admin.close()
)")
                                                 .arg(topic),
                                             60s, m_bootstrap);
        QVERIFY2(deleted.ok(), deleted.err.constData());
        // Read again as the tab and the command do ("Earliest"): the anchor is resolved
        // first, which says what happened.
        auto admin = kafka::AdminClient::create(options().profile, 10s);
        QVERIFY(admin.ok());
        const auto gone = records::resolveAnchor(*admin.value(), {}, {topic, 0},
                                                 {records::RecordAnchor::Kind::Earliest, 0});
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error().message.contains(QStringLiteral("does not exist (deleted")),
                 qPrintable(gone.error().toString()));

        // Recreated with other records: a new read (the tab reopens its reader on an error)
        // shows them.
        QVERIFY(test::createTopic(topic, 1, m_bootstrap));
        QVERIFY(test::produce(topic, 2, 0, m_bootstrap));
        auto reopened = records::RecordBrowser::open({topic, 0}, 0, options());
        QVERIFY2(reopened.ok(), reopened ? "" : qPrintable(reopened.error().toString()));
        const auto successor = reopened.value()->readFrom(0, 10, 2);
        QVERIFY2(successor.ok(), successor ? "" : qPrintable(successor.error().toString()));
        QCOMPARE(offsetsOf(successor.value()), range(0, 2));
    }
};

QTEST_GUILESS_MAIN(TestRecordsFaults)
#include "TestRecordsFaults.moc"
