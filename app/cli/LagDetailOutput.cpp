#include "cli/LagDetailOutput.h"

#include "cli/TextTable.h"
#include "lag/LagDetailText.h"

namespace groupscope::cli {

namespace {

QString numberOrDash(std::optional<int64_t> value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}

} // namespace

void printLagDetail(QTextStream& out, const monitor::GroupSnapshot& group, int64_t nowMs) {
    out << u'\n';
    TextTable table({QStringLiteral("TOPIC"), QStringLiteral("PARTITION"), QStringLiteral("LAG"),
                     QStringLiteral("LAST-STABLE-OFFSET"), QStringLiteral("LSO-LAG"),
                     QStringLiteral("EFFECTIVE-LAG"), QStringLiteral("OLDEST-UNCONSUMED"),
                     QStringLiteral("WHY")});
    QStringList notComputed;
    for (const monitor::PartitionSnapshot& partition : group.partitions) {
        const lag::LagDetail& detail = partition.lagDetail;
        const bool hasCommit = partition.committedOffset.has_value();
        table.addRow({partition.topicPartition.topic,
                      QString::number(partition.topicPartition.partition),
                      hasCommit ? numberOrDash(partition.lag) : QStringLiteral("no commit"),
                      numberOrDash(detail.lastStableOffset), numberOrDash(detail.lastStableLag),
                      lag::effectiveLagText(detail, hasCommit),
                      hasCommit ? lag::oldestRecordText(detail, nowMs) : QStringLiteral("-"),
                      detail.reason().isEmpty() ? QStringLiteral("-") : detail.reason()});
        for (const QString& line : detail.notComputed)
            notComputed.append(partition.topicPartition.toString() + QStringLiteral(": ") + line);
    }
    table.print(out);
    const std::optional<int64_t> effective = group.totalEffectiveLag();
    out << "TOTAL LAG " << group.totalLag() << ", EFFECTIVE "
        << (effective ? QString::number(*effective) : QStringLiteral("not decided"));
    if (const QString note = lag::withoutCommitText(group.partitionsWithoutCommit());
        !note.isEmpty())
        out << "; " << note << " (not counted)";
    out << u'\n';
    for (const QString& line : std::as_const(notComputed))
        out << "Not computed: " << line << u'\n';
}

} // namespace groupscope::cli
