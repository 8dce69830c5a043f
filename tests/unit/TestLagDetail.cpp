// LagDetailEvaluator and the record batch decoder on batches written here by hand from
// Kafka's documented v2 layout (DefaultRecordBatch.java), so neither checks itself: what a
// partition's entries after a commit are, and what could not be computed.
#include "kafka/records/RecordBatch.h"
#include "lag/LagDetailEvaluator.h"
#include "lag/LagDetailText.h"
#include "snapshot/GroupSnapshot.h"

#include <QTest>

using namespace groupscope;
using kafka::AbortedTransaction;
using kafka::LogRead;
using kafka::PartitionPosition;
using kafka::StableOffset;
using lag::LagDetail;
using lag::LagDetailEvaluator;

namespace {

const kafka::TopicPartition partition{QStringLiteral("orders"), 0};

// Kafka's zig-zag varint.
void varint(QByteArray& out, int64_t value) {
    uint64_t raw = (uint64_t(value) << 1) ^ uint64_t(value >> 63);
    while (raw >= 0x80) {
        out.append(char((raw & 0x7F) | 0x80));
        raw >>= 7;
    }
    out.append(char(raw));
}
void bigEndian(QByteArray& out, uint64_t value, int size) {
    for (int i = size - 1; i >= 0; --i)
        out.append(char((value >> (8 * i)) & 0xFF));
}

struct Batch {
    int64_t baseOffset = 0;
    int records = 1;
    int64_t baseTimestamp = 1'700'000'000'000;
    int64_t timestampStep = 1000;
    int64_t producerId = -1;
    bool transactional = false;
    bool control = false;
    bool commit = true; // the marker's kind, for control batches
    bool logAppendTime = false;
    int compression = 0;
    int offsetStep = 1; // >1: offsets compaction left holes between

    QByteArray bytes() const {
        QByteArray body;
        for (int i = 0; i < records; ++i) {
            QByteArray record;
            record.append(char(0)); // attributes
            varint(record, timestampStep * i);
            varint(record, int64_t(i) * offsetStep);
            if (control) {
                QByteArray key;
                bigEndian(key, 0, 2);
                bigEndian(key, commit ? 1 : 0, 2);
                varint(record, key.size());
                record.append(key);
                QByteArray value;
                bigEndian(value, 0, 2);
                bigEndian(value, 0, 4);
                varint(record, value.size());
                record.append(value);
            } else {
                varint(record, -1); // no key
                varint(record, 5);
                record.append("value");
            }
            varint(record, 0); // headers
            varint(body, record.size());
            body.append(record);
        }
        QByteArray afterLength;
        bigEndian(afterLength, 0, 4); // partition leader epoch
        afterLength.append(char(2));  // magic
        bigEndian(afterLength, 0, 4); // crc (not checked)
        int attributes = compression | (logAppendTime ? 0x08 : 0) | (transactional ? 0x10 : 0) |
                         (control ? 0x20 : 0);
        bigEndian(afterLength, uint64_t(attributes), 2);
        bigEndian(afterLength, uint64_t((records - 1) * offsetStep), 4);
        bigEndian(afterLength, uint64_t(baseTimestamp), 8);
        bigEndian(afterLength, uint64_t(baseTimestamp + timestampStep * (records - 1)), 8);
        bigEndian(afterLength, uint64_t(producerId), 8);
        bigEndian(afterLength, 0, 2);
        bigEndian(afterLength, 0, 4);
        bigEndian(afterLength, uint64_t(records), 4);
        afterLength.append(body);
        QByteArray out;
        bigEndian(out, uint64_t(baseOffset), 8);
        bigEndian(out, uint64_t(afterLength.size()), 4);
        out.append(afterLength);
        return out;
    }
};

PartitionPosition position(std::optional<int64_t> committed, int64_t logStart, int64_t logEnd) {
    PartitionPosition p;
    p.topicPartition = partition;
    p.committedOffset = committed;
    p.logStartOffset = logStart;
    p.logEndOffset = logEnd;
    p.lag = committed ? std::optional<int64_t>(logEnd - *committed) : std::nullopt;
    return p;
}

LogRead readOf(int64_t from, int64_t highWatermark, int64_t lastStable, const QByteArray& records,
               QList<AbortedTransaction> aborted = {}) {
    LogRead read;
    read.topicPartition = partition;
    read.fetchOffset = from;
    read.highWatermark = highWatermark;
    read.lastStableOffset = lastStable;
    read.logStartOffset = 0;
    read.records = records;
    read.abortedTransactions = aborted;
    return read;
}

StableOffset stableAt(int64_t offset) {
    return StableOffset{partition, offset, {}};
}

} // namespace

class TestLagDetail : public QObject {
    Q_OBJECT

private slots:
    // The case of Burrow#651: a read_committed consumer that committed after the last
    // record of a committed transaction; only the commit marker is left.
    void aMarkerAloneIsCaughtUp() {
        const auto pos = position(5, 0, 6);
        const StableOffset stable = stableAt(6);
        const LogRead read = readOf(5, 6, 6, Batch{5, 1, 0, 0, 42, true, true}.bytes());
        const LagDetail detail = LagDetailEvaluator::evaluate(pos, &stable, &read);
        QCOMPARE(pos.lag, std::optional<int64_t>(1)); // Kafka's figure, untouched
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(0));
        QCOMPARE(detail.transactionMarkers, 1);
        QCOMPARE(detail.lastStableOffset, std::optional<int64_t>(6));
        QCOMPARE(detail.lastStableLag, std::optional<int64_t>(1));
        QCOMPARE(detail.reason(), QStringLiteral("caught up: 1 transaction marker"));
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::NotNeeded);
        QVERIFY(detail.notComputed.isEmpty());
    }

    void dataBeforeTheMarkerCounts() {
        // Records 3-4 of a transaction, its marker at 5; committed at 3.
        QByteArray records = Batch{0, 5, 1'000, 10, 42, true}.bytes();
        records += Batch{5, 1, 0, 0, 42, true, true}.bytes();
        const auto pos = position(3, 0, 6);
        const LogRead read = readOf(3, 6, 6, records);
        const LagDetail detail = LagDetailEvaluator::evaluate(pos, nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(2));
        QCOMPARE(detail.transactionMarkers, 1);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::Exact);
        QCOMPARE(detail.oldestRecordOffset, 3);
        QCOMPARE(detail.oldestRecordTimestampMs, 1'030); // the record's own, not the batch's
    }

    void abortedRecordsAreNotLag() {
        QByteArray records = Batch{10, 3, 1'000, 10, 7, true}.bytes();
        Batch marker{13, 1, 0, 0, 7, true, true};
        marker.commit = false;
        records += marker.bytes();
        const LogRead read = readOf(10, 14, 14, records, {{7, 10}});
        const LagDetail detail = LagDetailEvaluator::evaluate(position(10, 0, 14), nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(0));
        QCOMPARE(detail.abortedRecords, 3);
        QCOMPARE(detail.transactionMarkers, 1);
        QCOMPARE(detail.reason(),
                 QStringLiteral("caught up: 1 transaction marker, 3 aborted records"));
    }

    void anOpenTransactionIsNamedWithItsSize() {
        // Two plain records, then an open transaction from offset 12 to the log end 17.
        const LogRead read = readOf(10, 17, 12, Batch{10, 2}.bytes());
        const StableOffset stable = stableAt(12);
        const LagDetail detail = LagDetailEvaluator::evaluate(position(10, 0, 17), &stable, &read);
        QCOMPARE(detail.openTransactionRecords, 5);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(7));
        QCOMPARE(detail.lastStableLag, std::optional<int64_t>(2));
        QCOMPARE(detail.reason(), QStringLiteral("open transaction holding back 5 records"));

        // Committed at the last stable offset: nothing to read now, all held back.
        const LogRead atStable = readOf(12, 17, 12, {});
        const LagDetail held =
            LagDetailEvaluator::evaluate(position(12, 0, 17), &stable, &atStable);
        QCOMPARE(held.effectiveLag, std::optional<int64_t>(5));
        QCOMPARE(held.oldestRecord, LagDetail::OldestRecord::HeldBack);
    }

    void aCommitBelowTheLogStartIsFlagged() {
        const auto pos = position(40, 100, 130);
        const LagDetail detail = LagDetailEvaluator::evaluate(pos, nullptr, nullptr);
        QCOMPARE(pos.lag, std::optional<int64_t>(90)); // Kafka's tool prints this "phantom" lag
        QVERIFY(detail.commitDeletedByRetention);
        QCOMPARE(detail.recordsDeletedByRetention, 60);
        QCOMPARE(detail.effectiveLag, std::nullopt); // depends on auto.offset.reset: unknown
        QVERIFY(detail.reason().startsWith(
            QStringLiteral("commit deleted by retention: 60 records gone")));
        QVERIFY(detail.reason().contains(QStringLiteral("unknown")));
    }

    void aCommitPastTheLogEndIsNeverANegativeLag() {
        const auto pos = position(50, 0, 20);
        const LagDetail detail = LagDetailEvaluator::evaluate(pos, nullptr, nullptr);
        QCOMPARE(pos.lag, std::optional<int64_t>(-30)); // as Kafka's tool prints it
        QVERIFY(detail.commitPastLogEnd);
        QCOMPARE(detail.effectiveLag, std::nullopt);
    }

    void noCommitIsNotZero() {
        monitor::GroupSnapshot group;
        monitor::PartitionSnapshot withCommit;
        withCommit.setPosition(position(5, 0, 8));
        withCommit.lagDetail.edit().effectiveLag = 3;
        monitor::PartitionSnapshot without;
        without.setPosition(position(std::nullopt, 0, 8));
        without.lagDetail = LagDetailEvaluator::evaluate(without, nullptr, nullptr);
        group.partitions = {withCommit, without, without};
        QCOMPARE(group.totalLag(), 3);
        QCOMPARE(group.partitionsWithoutCommit(), 2);
        QCOMPARE(group.totalEffectiveLag(), std::optional<int64_t>(3));
        QCOMPARE(lag::withoutCommitText(2), QStringLiteral("2 partitions without a commit"));
        QCOMPARE(lag::effectiveLagText(without.lagDetail, false), QStringLiteral("no commit"));
        QCOMPARE(without.lagDetail->effectiveLag, std::nullopt);
    }

    void aRecordWithoutTimestampSaysSo() {
        Batch batch{0, 2, -1, 0};
        const LogRead read = readOf(0, 2, 2, batch.bytes());
        const LagDetail detail = LagDetailEvaluator::evaluate(position(0, 0, 2), nullptr, &read);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::NoTimestamp);
        QCOMPARE(detail.oldestRecordTimestampMs, -1);
        QCOMPARE(lag::oldestRecordText(detail, 5'000), QStringLiteral("no timestamp"));
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(2)); // the count stands
    }

    void logAppendTimeIsTheBatchTime() {
        Batch batch{0, 3, 5'000, 100};
        batch.logAppendTime = true;
        const LogRead read = readOf(1, 3, 3, batch.bytes());
        const LagDetail detail = LagDetailEvaluator::evaluate(position(1, 0, 3), nullptr, &read);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::Exact);
        QCOMPARE(detail.oldestRecordTimestampMs, 5'200); // maxTimestamp: the append time
        QVERIFY(detail.oldestRecordLogAppendTime);
        QCOMPARE(lag::oldestRecordText(detail, 65'200), QStringLiteral("1m 00s old (exact)"));
    }

    void aCompressedBatchGivesItsFirstTimestampSaidSo() {
        Batch batch{0, 4, 9'000, 10};
        batch.compression = 1; // the records are not readable without gzip: only the header
        const LogRead read = readOf(2, 4, 4, batch.bytes());
        const LagDetail detail = LagDetailEvaluator::evaluate(position(2, 0, 4), nullptr, &read);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::BatchTime);
        QCOMPARE(detail.oldestRecordTimestampMs, 9'000);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(2)); // offsets 2-3 of the batch
    }

    void compactionHolesAreNoRecords() {
        Batch batch{0, 3};
        batch.offsetStep = 3; // offsets 0, 3, 6: compaction removed the others
        const LogRead read = readOf(0, 7, 7, batch.bytes());
        const LagDetail detail = LagDetailEvaluator::evaluate(position(0, 0, 7), nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(3));
    }

    // Found by fuzz_record-batches: batches whose offsets overlap (bytes no broker sends,
    // but bytes from the network) counted the shared offsets twice, more lag than entries.
    void overlappingBatchesCountEachOffsetOnce() {
        QByteArray records = Batch{0, 3}.bytes();
        records += Batch{0, 3}.bytes();
        const LogRead read = readOf(0, 3, 3, records);
        const LagDetail detail = LagDetailEvaluator::evaluate(position(0, 0, 3), nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::optional<int64_t>(3));
    }

    void aCutReadDecidesNothingItDidNotSee() {
        QByteArray records = Batch{0, 10}.bytes();
        records += Batch{10, 10}.bytes().left(30); // cut by the fetch size
        const LogRead read = readOf(0, 5'000, 5'000, records);
        const LagDetail detail =
            LagDetailEvaluator::evaluate(position(0, 0, 5'000), nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::nullopt);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::Exact); // the first one was read
        QVERIFY(detail.notComputed.join(u'\n').contains(QStringLiteral("effective lag")));
    }

    void aReadFromAnEarlierPollKeepsOnlyTheOldestRecord() {
        const LogRead read = readOf(0, 10, 10, Batch{0, 10}.bytes());
        const LagDetail detail =
            LagDetailEvaluator::evaluate(position(0, 0, 2'000), nullptr, &read);
        QCOMPARE(detail.effectiveLag, std::nullopt);
        QCOMPARE(detail.openTransactionRecords, 0); // not guessed from the old read's end
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::Exact);
    }

    void faultsLeaveThePlainFiguresAndSayWhat() {
        const auto pos = position(5, 0, 8);
        // A broker that refuses ListOffsets READ_COMMITTED; records that cannot be read.
        const StableOffset refused{partition, -1,
                                   kafka::KafkaError::fromCode(35, QStringLiteral("ListOffsets"))};
        LogRead denied = readOf(5, 8, 8, {});
        denied.error = kafka::KafkaError::fromCode(29, QStringLiteral("reading orders:0"));
        const LagDetail detail = LagDetailEvaluator::evaluate(pos, &refused, &denied);
        QCOMPARE(pos.lag, std::optional<int64_t>(3));
        QCOMPARE(detail.lastStableOffset, std::nullopt);
        QCOMPARE(detail.effectiveLag, std::nullopt);
        QCOMPARE(detail.oldestRecord, LagDetail::OldestRecord::NotRead);
        const QString said = detail.notComputed.join(u'\n');
        QVERIFY2(said.contains(QStringLiteral("last stable offset: ")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("could not be read")), qPrintable(said));
        QCOMPARE(lag::oldestRecordText(detail, 0), QStringLiteral("\u2013"));

        // Compaction racing the read: the offset is gone, the leader answers out of range.
        LogRead raced = readOf(5, 8, 8, {});
        raced.error = kafka::KafkaError::fromCode(1, QStringLiteral("reading orders:0"));
        QCOMPARE(LagDetailEvaluator::evaluate(pos, nullptr, &raced).effectiveLag, std::nullopt);
    }

    void theDecoderRefusesWhatCannotBe() {
        using kafka::records::decodeRecordBatches;
        // An old message format: not guessed at.
        QByteArray legacy = Batch{0, 1}.bytes();
        legacy[16] = 1;
        QVERIFY(decodeRecordBatches(legacy).problem.contains(QStringLiteral("v1")));
        // A batch length shorter than a header.
        QByteArray shortLength = Batch{0, 1}.bytes();
        shortLength[11] = 10;
        shortLength[10] = shortLength[9] = shortLength[8] = 0;
        QVERIFY(!decodeRecordBatches(shortLength).problem.isEmpty());
        // Cut anywhere: never more than what is there, never a failure for a cut.
        const QByteArray whole = Batch{0, 3}.bytes() + Batch{3, 1, 0, 0, 9, true, true}.bytes();
        for (int size = 0; size <= whole.size(); ++size) {
            const auto decoded = decodeRecordBatches(QByteArrayView(whole).first(size));
            QVERIFY(decoded.problem.isEmpty());
            for (const auto& batch : decoded.batches)
                QVERIFY(batch.records.size() <= batch.recordCount);
        }
        const auto decoded = decodeRecordBatches(whole);
        QCOMPARE(decoded.batches.size(), 2);
        QCOMPARE(decoded.batches[1].controlType, kafka::records::ControlType::Commit);
        QVERIFY(decoded.batches[1].isControl());
    }
};

QTEST_GUILESS_MAIN(TestLagDetail)
#include "TestLagDetail.moc"
