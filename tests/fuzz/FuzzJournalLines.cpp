// libFuzzer target for the journal's JSON-lines reader (the audit.jsonl of earlier versions,
// imported once, and the journal's plain-text export): any bytes, one entry per line.
#include "offsets/JournalEntry.h"

#include <QJsonDocument>

#include <cstddef>
#include <cstdint>

using namespace groupscope::offsets;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray text(reinterpret_cast<const char*>(data), qsizetype(size));
    QStringList problems;
    const QList<JournalEntry> entries =
        parseJournalLines(text, QStringLiteral("fuzz.jsonl"), &problems);
    // Every non-empty line is either an entry or a named problem, never lost in between.
    qsizetype lines = 0;
    for (const QByteArray& line : text.split('\n'))
        if (!line.trimmed().isEmpty())
            ++lines;
    if (entries.size() + problems.size() != lines)
        __builtin_trap();
    // What was read must survive a write and a second read unchanged.
    for (const JournalEntry& entry : entries) {
        const QByteArray written = QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact);
        QStringList again;
        const QList<JournalEntry> reread =
            parseJournalLines(written, QStringLiteral("again"), &again);
        if (reread.size() != 1 || reread.first().toJson() != entry.toJson())
            __builtin_trap();
    }
    return 0;
}
