// libFuzzer target for the record batch decoder (bytes of a Fetch answer) and the lag
// detail decided from them.
//
// Input layout: byte 0 is the committed offset (0-255), byte 1 how far past it the log end
// is and byte 2 the last stable offset's distance before the log end; byte 3's low bit
// names producer 0..1 as aborted from offset 0; the rest is the record set.

#include "kafka/records/RecordBatch.h"
#include "lag/LagDetailEvaluator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace groupscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4)
        return 0;
    const QByteArray records(reinterpret_cast<const char*>(data) + 4, qsizetype(size - 4));
    const auto decoded = kafka::records::decodeRecordBatches(records);
    for (const auto& batch : decoded.batches) {
        if (batch.records.size() > batch.recordCount || batch.baseOffset < 0)
            std::abort();
        for (const auto& record : batch.records)
            if (record.offset < batch.baseOffset || record.offset > batch.lastOffset())
                std::abort();
    }

    kafka::PartitionPosition position;
    position.topicPartition = {QStringLiteral("t"), 0};
    position.committedOffset = data[0];
    position.logStartOffset = 0;
    position.logEndOffset = int64_t(data[0]) + data[1];
    position.lag = data[1];
    kafka::LogRead read;
    read.topicPartition = position.topicPartition;
    read.fetchOffset = data[0];
    read.highWatermark = position.logEndOffset;
    read.lastStableOffset = position.logEndOffset - data[2];
    read.records = records;
    if (data[3] & 1)
        read.abortedTransactions = {{(data[3] >> 1) & 1, 0}};
    const lag::LagDetail detail = lag::LagDetailEvaluator::evaluate(position, nullptr, &read);
    // Never a negative figure, never more effective lag than entries after the commit.
    if (detail.effectiveLag && (*detail.effectiveLag < 0 || *detail.effectiveLag > data[1]))
        std::abort();
    if (detail.transactionMarkers < 0 || detail.abortedRecords < 0 ||
        detail.openTransactionRecords < 0)
        std::abort();
    return int(detail.reason().size() & 0);
}
