#include "offsets/RecordPreviewer.h"

#include "consumer/ConsumerSession.h"

#include <QDateTime>
#include <QSet>

namespace groupscope::offsets {

using kafka::TopicPartition;

namespace {

QString printable(const QByteArray& bytes, qsizetype fullSize) {
    QString text;
    for (const char c : bytes)
        text += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : QChar(u'.');
    if (fullSize > bytes.size())
        text += QStringLiteral("…");
    return text;
}

} // namespace

QString RecordPreview::describe() const {
    if (!error.isEmpty())
        return QStringLiteral("(%1)").arg(error);
    if (atLogEnd)
        return QStringLiteral("(at log end: waits for new records)");
    QString text =
        QStringLiteral("@%1 %2 key=%3 value=%4")
            .arg(offset)
            .arg(timestampMs >= 0 ? QDateTime::fromMSecsSinceEpoch(timestampMs, Qt::UTC)
                                        .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"))
                                  : QStringLiteral("-"))
            .arg(keyHead.isNull() ? QStringLiteral("null") : keyText(), valueText());
    return text;
}

QString RecordPreview::keyText() const {
    return printable(keyHead, keyHead.size());
}

QString RecordPreview::valueText() const {
    return printable(valueHead, valueSize);
}

namespace {

using Round = QMap<TopicPartition, int64_t>; // partition -> offset to read

// Copies the first bytes of a consumed record into its preview.
void fill(RecordPreview& preview, const consumer::ConsumedMessage& message, int headBytes) {
    preview.offset = message.offset();
    preview.timestampMs = message.timestamp();
    const QByteArrayView key = message.key();
    preview.keyHead = key.data()
                          ? key.first(std::min<qsizetype>(headBytes, key.size())).toByteArray()
                          : QByteArray();
    preview.valueSize = message.payload().size();
    preview.valueHead =
        message.payload().first(std::min<qsizetype>(headBytes, preview.valueSize)).toByteArray();
}

// Reads one record of each partition of a round with one consumer that joins no group.
void readRound(const kafka::ConnectionProfile& profile, const Round& round,
               std::chrono::milliseconds timeout, std::chrono::steady_clock::time_point deadline,
               int headBytes, const std::atomic<bool>* cancelled,
               QHash<RecordPreviewer::Key, RecordPreview>& previews) {
    const auto isCancelled = [cancelled] { return cancelled && cancelled->load(); };
    auto fail = [&](const QString& message) {
        for (auto it = round.cbegin(); it != round.cend(); ++it)
            previews[{it.key(), it.value()}].error = message;
    };
    if (isCancelled())
        return fail(QStringLiteral("cancelled"));
    consumer::ConsumerSessionOptions options;
    options.profile = profile;
    options.bufferCapacity = 1; // one record per partition is all we want
    options.operationTimeout = timeout;
    auto session = consumer::ConsumerSession::create(options);
    if (!session)
        return fail(session.error().message);
    QMap<TopicPartition, consumer::RepositionTarget> targets;
    for (auto it = round.cbegin(); it != round.cend(); ++it)
        targets.insert(it.key(), consumer::RepositionTarget::offset(it.value()));
    if (auto assigned = session.value()->assign(targets); !assigned)
        return fail(assigned.error().message);
    QSet<TopicPartition> waiting(round.keyBegin(), round.keyEnd());
    while (!waiting.isEmpty() && std::chrono::steady_clock::now() < deadline && !isCancelled()) {
        session.value()->waitForMessages(std::chrono::milliseconds(100));
        for (auto it = waiting.begin(); it != waiting.end();) {
            const auto messages = session.value()->take(*it, 1);
            if (messages.empty()) {
                ++it;
                continue;
            }
            fill(previews[{*it, round.value(*it)}], messages.front(), headBytes);
            it = waiting.erase(it);
        }
    }
    for (const TopicPartition& tp : waiting)
        previews[{tp, round.value(tp)}].error =
            isCancelled() ? QStringLiteral("cancelled")
                          : QStringLiteral("no record arrived within %1 ms").arg(timeout.count());
}

} // namespace

QHash<RecordPreviewer::Key, RecordPreview>
RecordPreviewer::preview(const kafka::ConnectionProfile& profile, const ResetPlan& plan,
                         std::chrono::milliseconds timeout, int headBytes,
                         const std::atomic<bool>* cancelled) {
    QHash<Key, RecordPreview> previews;
    // Rounds: one consumer can stand at only one offset per partition, and rows of several
    // groups may want the same partition at different offsets.
    QList<Round> rounds;
    for (const PlanRow& row : plan.rows) {
        if (!row.newOffset || previews.contains({row.topicPartition, *row.newOffset}))
            continue;
        RecordPreview& preview = previews[{row.topicPartition, *row.newOffset}];
        preview.topicPartition = row.topicPartition;
        preview.requestedOffset = *row.newOffset;
        if (*row.newOffset >= row.logEndOffset) {
            preview.atLogEnd = true;
            continue;
        }
        qsizetype round = 0;
        while (round < rounds.size() && rounds[round].contains(row.topicPartition))
            ++round;
        if (round == rounds.size())
            rounds.append(Round());
        rounds[round].insert(row.topicPartition, *row.newOffset);
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (const Round& round : rounds)
        readRound(profile, round, timeout, deadline, headBytes, cancelled, previews);
    return previews;
}

} // namespace groupscope::offsets
