#include "cli/RecordsCommand.h"

#include "cli/CommandErrors.h"
#include "cli/TextTable.h"
#include "common/StopSignalWatcher.h"
#include "kafka/AdminClient.h"
#include "records/RecordBrowser.h"
#include "records/RecordWindow.h"
#include "records/ValueFormat.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace groupscope::cli {

namespace {

using records::Record;
using records::ValueFormat;

constexpr int defaultBefore = 5;
constexpr int defaultAfter = 5;
// Bounds the page a command reads at once (and what it holds in memory).
constexpr int maxPageRecords = 10000;

struct RecordsOptions {
    QString group;
    kafka::TopicPartition partition;
    records::RecordAnchor anchor;
    int before = defaultBefore;
    int after = defaultAfter;
    bool follow = false;
    std::optional<ValueFormat> format; // empty: chosen per record
    bool readCommitted = true;
    bool asJson = false;
};

std::optional<int> parseCount(const QString& text) {
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok && value >= 0 && value <= maxPageRecords ? std::optional<int>(value) : std::nullopt;
}

// Returns ExitSuccess, or the usage error already reported.
int takeOptions(const CommandContext& context, ArgumentList& arguments, RecordsOptions& options) {
    options.group = arguments.takeValue(QStringLiteral("--group")).value_or(QString());
    const auto topic = arguments.takeValue(QStringLiteral("--topic"));
    if (!topic)
        return usageError(context, QStringLiteral("give the partition: --topic TOPIC:PARTITION"));
    const qsizetype colon = topic->lastIndexOf(u':');
    bool partitionOk = false;
    const int partition = colon > 0 ? topic->mid(colon + 1).toInt(&partitionOk) : -1;
    if (!partitionOk || partition < 0)
        return usageError(context, QStringLiteral("--topic takes one partition as TOPIC:PARTITION "
                                                  "(e.g. orders:3), got \"%1\"")
                                       .arg(*topic));
    options.partition = {topic->left(colon), partition};
    const QString at = arguments.takeValue(QStringLiteral("--at"))
                           .value_or(options.group.isEmpty() ? QStringLiteral("earliest")
                                                             : QStringLiteral("committed"));
    const auto anchor = records::RecordAnchor::parse(at);
    if (!anchor)
        return usageError(context, QStringLiteral("--at: %1").arg(anchor.error().message));
    options.anchor = anchor.value();
    for (const auto& [name, into] : {std::pair{QStringLiteral("--before"), &options.before},
                                     std::pair{QStringLiteral("--after"), &options.after}}) {
        if (const auto text = arguments.takeValue(name)) {
            const auto count = parseCount(*text);
            if (!count)
                return usageError(context, QStringLiteral("%1 takes a number of records from 0 to "
                                                          "%2, got \"%3\"")
                                               .arg(name)
                                               .arg(maxPageRecords)
                                               .arg(*text));
            *into = *count;
        }
    }
    if (const auto format = arguments.takeValue(QStringLiteral("--format"))) {
        options.format = records::valueFormatFromName(*format);
        if (!options.format)
            return usageError(
                context,
                QStringLiteral("--format takes text, json or hex, got \"%1\"").arg(*format));
    }
    options.follow = arguments.takeFlag(QStringLiteral("--follow"));
    options.readCommitted = !arguments.takeFlag(QStringLiteral("--read-uncommitted"));
    options.asJson = arguments.takeFlag(QStringLiteral("--json"));
    return rejectLeftovers(context, arguments);
}

QString timestampText(const Record& record) {
    return record.timestampMs >= 0 ? QDateTime::fromMSecsSinceEpoch(record.timestampMs, Qt::UTC)
                                         .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"))
                                   : QStringLiteral("-");
}

ValueFormat formatOf(const QByteArray& bytes, const RecordsOptions& options) {
    return records::usableFormat(bytes, options.format.value_or(records::detectFormat(bytes)));
}

// One line: JSON compact, text with its line breaks and tabs escaped.
QString oneLine(const QByteArray& bytes, const RecordsOptions& options) {
    QString text = records::renderValue(bytes, formatOf(bytes, options), false);
    text.replace(u'\\', QStringLiteral("\\\\"))
        .replace(u'\n', QStringLiteral("\\n"))
        .replace(u'\r', QStringLiteral("\\r"))
        .replace(u'\t', QStringLiteral("\\t"));
    return text;
}

QString headersText(const Record& record, const RecordsOptions& options) {
    QStringList headers;
    for (const auto& [name, value] : record.headers)
        headers.append(name + u':' + oneLine(value, options));
    return headers.isEmpty() ? QStringLiteral("-") : headers.join(u',');
}

QString valueText(const Record& record, const RecordsOptions& options) {
    QString text = oneLine(record.value, options);
    if (record.valueCut())
        text += QStringLiteral("… (%1 more bytes)").arg(record.valueSize - record.value.size());
    return text;
}

void addRecordRow(TextTable& table, const Record& record, const records::ResolvedAnchor& anchor,
                  const RecordsOptions& options) {
    table.addRow({record.offset == anchor.offset ? QStringLiteral(">") : QString(),
                  QString::number(record.offset), timestampText(record),
                  records::timestampTypeName(record.timestampType),
                  record.key.isNull() ? QStringLiteral("null") : oneLine(record.key, options),
                  valueText(record, options), headersText(record, options),
                  QString::number(record.sizeBytes())});
}

TextTable recordTable() {
    return TextTable({QString(), QStringLiteral("OFFSET"), QStringLiteral("TIMESTAMP"),
                      QStringLiteral("TYPE"), QStringLiteral("KEY"), QStringLiteral("VALUE"),
                      QStringLiteral("HEADERS"), QStringLiteral("SIZE")});
}

QString anchorText(const RecordsOptions& options, const records::ResolvedAnchor& anchor) {
    if (options.anchor.kind == records::RecordAnchor::Kind::Committed)
        return QStringLiteral("the committed offset of group '%1' (%2): the record the group "
                              "reads next")
            .arg(options.group)
            .arg(anchor.offset);
    return QStringLiteral("%1 (%2)").arg(options.anchor.describe()).arg(anchor.offset);
}

void printPage(const CommandContext& context, const records::RecordPage& page,
               const RecordsOptions& options) {
    const records::ResolvedAnchor& anchor = page.anchor;
    context.out << QStringLiteral("Records of %1 (log %2 to %3, %4); > marks %5\n")
                       .arg(anchor.partition.toString())
                       .arg(anchor.logStartOffset)
                       .arg(anchor.logEndOffset)
                       .arg(options.readCommitted ? QStringLiteral("committed records only")
                                                  : QStringLiteral("uncommitted records too"))
                       .arg(anchorText(options, anchor));
    TextTable table = recordTable();
    qsizetype gap = 0;
    for (const Record& record : page.records) {
        while (gap < page.gaps.size() && page.gaps.at(gap).to < record.offset) {
            const records::OffsetGap& missing = page.gaps.at(gap++);
            table.addRow({QString(),
                          missing.from == missing.to
                              ? QString::number(missing.from)
                              : QStringLiteral("%1-%2").arg(missing.from).arg(missing.to),
                          QString(), QString(), QString(),
                          QStringLiteral("(no record: a transaction marker, an aborted or a "
                                         "compacted record)"),
                          QString(), QString()});
        }
        addRecordRow(table, record, anchor, options);
    }
    table.print(context.out);
    if (anchor.offset >= anchor.logEndOffset)
        context.out << QStringLiteral("> %1 is the log end: nothing there to read yet\n")
                           .arg(anchorText(options, anchor));
}

QJsonValue bytesJson(const QByteArray& bytes, ValueFormat format) {
    if (bytes.isNull())
        return QJsonValue::Null;
    if (format == ValueFormat::Json) {
        const QJsonDocument document = QJsonDocument::fromJson(bytes);
        return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    }
    return records::renderValue(bytes, format, false);
}

QJsonObject recordJson(const Record& record, const records::ResolvedAnchor& anchor,
                       const RecordsOptions& options) {
    const ValueFormat keyFormat = formatOf(record.key, options);
    const ValueFormat valueFormat = formatOf(record.value, options);
    QJsonArray headers;
    for (const auto& [name, value] : record.headers)
        headers.append(
            QJsonObject{{QStringLiteral("key"), name},
                        {QStringLiteral("value"), bytesJson(value, formatOf(value, options))}});
    return QJsonObject{
        {QStringLiteral("topic"), anchor.partition.topic},
        {QStringLiteral("partition"), anchor.partition.partition},
        {QStringLiteral("offset"), qint64(record.offset)},
        {QStringLiteral("timestamp"), qint64(record.timestampMs)},
        {QStringLiteral("timestampType"), records::timestampTypeName(record.timestampType)},
        {QStringLiteral("key"), bytesJson(record.key, keyFormat)},
        {QStringLiteral("keyFormat"), records::valueFormatName(keyFormat)},
        {QStringLiteral("value"), bytesJson(record.value, valueFormat)},
        {QStringLiteral("valueFormat"), records::valueFormatName(valueFormat)},
        {QStringLiteral("valueSize"), qint64(record.valueSize)},
        {QStringLiteral("valueCut"), record.valueCut()},
        {QStringLiteral("headers"), headers},
        {QStringLiteral("size"), qint64(record.sizeBytes())},
        {QStringLiteral("atAnchor"), record.offset == qint64(anchor.offset)},
    };
}

QJsonObject pageJson(const records::RecordPage& page, const RecordsOptions& options) {
    const records::ResolvedAnchor& anchor = page.anchor;
    QJsonArray rows;
    for (const Record& record : page.records)
        rows.append(recordJson(record, anchor, options));
    QJsonArray gaps;
    for (const records::OffsetGap& gap : page.gaps)
        gaps.append(QJsonObject{{QStringLiteral("from"), qint64(gap.from)},
                                {QStringLiteral("to"), qint64(gap.to)}});
    QJsonObject object{
        {QStringLiteral("topic"), anchor.partition.topic},
        {QStringLiteral("partition"), anchor.partition.partition},
        {QStringLiteral("anchor"), options.anchor.describe()},
        {QStringLiteral("anchorOffset"), qint64(anchor.offset)},
        {QStringLiteral("logStartOffset"), qint64(anchor.logStartOffset)},
        {QStringLiteral("logEndOffset"), qint64(anchor.logEndOffset)},
        {QStringLiteral("isolation"), options.readCommitted ? QStringLiteral("read_committed")
                                                            : QStringLiteral("read_uncommitted")},
        {QStringLiteral("records"), rows},
        {QStringLiteral("gaps"), gaps},
    };
    if (!options.group.isEmpty())
        object.insert(QStringLiteral("group"), options.group);
    if (anchor.committedOffset)
        object.insert(QStringLiteral("committedOffset"), qint64(*anchor.committedOffset));
    if (!anchor.note.isEmpty())
        object.insert(QStringLiteral("note"), anchor.note);
    return object;
}

// Prints the records that arrive until Ctrl-C: one table per batch, or one JSON object
// per line.
void follow(const CommandContext& context, records::RecordBrowser& browser,
            const records::ResolvedAnchor& anchor, const RecordsOptions& options) {
    app::StopSignalWatcher stop;
    context.err << "Following new records (Ctrl-C to stop)...\n" << Qt::flush;
    while (!stop.waitUntil(app::StopSignalWatcher::Clock::now())) {
        const QList<Record> arrived = browser.takeNew(std::chrono::milliseconds(200), 500);
        if (arrived.isEmpty())
            continue;
        if (options.asJson) {
            for (const Record& record : arrived)
                context.out << QJsonDocument(recordJson(record, anchor, options))
                                   .toJson(QJsonDocument::Compact);
        } else {
            TextTable table = recordTable();
            for (const Record& record : arrived)
                addRecordRow(table, record, anchor, options);
            table.print(context.out);
        }
        context.out.flush();
    }
}

} // namespace

int runRecordsCommand(const CommandContext& context, ArgumentList& arguments) {
    RecordsOptions options;
    if (const int usage = takeOptions(context, arguments, options))
        return usage;
    auto admin = kafka::AdminClient::create(context.profile, context.timeout);
    if (!admin) {
        context.err << "Error: " << admin.error().message << u'\n';
        return ExitFailure;
    }
    const auto anchor =
        records::resolveAnchor(*admin.value(), options.group, options.partition, options.anchor);
    if (!anchor) {
        context.err << "Error: " << anchor.error().message << u'\n';
        return ExitFailure;
    }
    if (!anchor.value().note.isEmpty())
        context.err << "Note: " << anchor.value().note << u'\n';
    records::RecordBrowser::Options browserOptions;
    browserOptions.profile = context.profile;
    browserOptions.readCommitted = options.readCommitted;
    browserOptions.timeout = std::max(context.timeout, std::chrono::milliseconds(5000));
    auto browser =
        records::RecordBrowser::open(options.partition, anchor.value().offset, browserOptions);
    if (!browser) {
        context.err << "Error: " << browser.error().message << u'\n';
        return ExitFailure;
    }
    const auto page =
        records::readAround(*browser.value(), anchor.value(), options.before, options.after);
    if (!page) {
        context.err << "Error: " << page.error().message << u'\n';
        return ExitFailure;
    }
    if (options.asJson && options.follow) {
        for (const Record& record : page.value().records)
            context.out << QJsonDocument(recordJson(record, anchor.value(), options))
                               .toJson(QJsonDocument::Compact);
    } else if (options.asJson) {
        context.out
            << QJsonDocument(pageJson(page.value(), options)).toJson(QJsonDocument::Indented);
    } else {
        printPage(context, page.value(), options);
    }
    context.out.flush();
    if (options.follow) {
        // The page may have stopped before the log end: follow continues after what it showed.
        const int64_t next = page.value().records.isEmpty()
                                 ? anchor.value().offset
                                 : page.value().records.last().offset + 1;
        if (auto moved = browser.value()->readFrom(next, 0, next); !moved) {
            context.err << "Error: " << moved.error().message << u'\n';
            return ExitFailure;
        }
        follow(context, *browser.value(), anchor.value(), options);
    }
    return ExitSuccess;
}

} // namespace groupscope::cli
