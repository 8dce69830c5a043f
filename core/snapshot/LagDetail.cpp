#include "snapshot/LagDetail.h"

namespace groupscope::lag {

namespace {

QString count(int64_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace

QString LagDetail::reason() const {
    if (commitDeletedByRetention)
        return QStringLiteral("commit deleted by retention: %1 gone; the group resumes per its "
                              "auto.offset.reset (unknown from outside): earliest reads from the "
                              "log start, latest skips to the log end")
            .arg(count(recordsDeletedByRetention, "record", "records"));
    if (commitPastLogEnd)
        return QStringLiteral("commit past the log end (the log was truncated): the group "
                              "resumes per its auto.offset.reset (unknown from outside)");
    if (!effectiveLag)
        return {};
    QStringList parts;
    if (transactionMarkers > 0)
        parts.append(count(transactionMarkers, "transaction marker", "transaction markers"));
    if (abortedRecords > 0)
        parts.append(count(abortedRecords, "aborted record", "aborted records"));
    if (openTransactionRecords > 0)
        parts.append(QStringLiteral("open transaction holding back %1")
                         .arg(count(openTransactionRecords, "record", "records")));
    const QString joined = parts.join(QStringLiteral(", "));
    if (*effectiveLag == 0)
        return joined.isEmpty() ? QStringLiteral("caught up")
                                : QStringLiteral("caught up: ") + joined;
    return joined;
}

SharedLagDetail::SharedLagDetail(LagDetail detail) {
    if (!(detail == none()))
        m_detail = std::make_shared<LagDetail>(std::move(detail));
}

LagDetail& SharedLagDetail::edit() {
    if (!m_detail || m_detail.use_count() > 1)
        m_detail = std::make_shared<LagDetail>(get());
    return *m_detail;
}

const LagDetail& SharedLagDetail::none() {
    static const LagDetail empty;
    return empty;
}

} // namespace groupscope::lag
