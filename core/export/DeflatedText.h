#pragma once
// Text kept deflated (gzip's compression, RFC 1951/1952), for the exporter's rendered
// refresh: a few hundred bytes of labels per partition that compress about 25 to 1, so at
// 100,000 groups on 1,000,000 partitions the text kept between refreshes is tens of
// megabytes instead of most of a gigabyte. A scrape that accepts gzip (Prometheus asks for
// it) is sent the kept bytes as they are, followed by the few it renders itself; any other
// scrape gets the text inflated.

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

#include <cstdint>
#include <memory>

namespace groupscope::exporter {

// A deflated text that can be continued: its deflate blocks end on a byte boundary and none
// is the last, so a gzip member is this text's blocks, then the blocks of whatever follows
// (compressed on its own), then the checksum of both (as pigz joins its pieces). Texts
// deflated apart (on several threads) join the same way, without copying their blocks.
struct DeflatedText {
    QByteArrayList blocks; // runs of raw deflate blocks, in order, none marked final
    uint32_t crc32 = 0;    // of the text (zlib's crc32; 0 for no text)
    int64_t textSize = 0;  // bytes of the text

    // This text followed by `next`'s.
    void append(DeflatedText next);
    qsizetype deflatedSize() const;
    // One gzip member holding this text followed by `tail`: a header, the shared blocks (not
    // copied), the tail's blocks, the checksum and size of both.
    QByteArrayList gzipWith(QByteArrayView tail) const;
};

// A DeflatedText inflated a piece at a time, for a client that does not take gzip: whole,
// the text of 100,000 groups is some 700 MB, held for as long as the client takes to read.
class TextInflater {
public:
    explicit TextInflater(DeflatedText text); // shares the blocks, does not copy them
    ~TextInflater();
    TextInflater(const TextInflater&) = delete;
    TextInflater& operator=(const TextInflater&) = delete;

    // The text's next bytes, at most `maxBytes`; empty once all of it was given.
    QByteArray next(qsizetype maxBytes);

private:
    struct Stream;
    DeflatedText m_text;
    std::unique_ptr<Stream> m_stream;
    qsizetype m_block = 0;   // the run of blocks being inflated
    qsizetype m_read = 0;    // bytes of that run inflated so far
    qsizetype m_written = 0; // bytes of the text given so far
};

// Deflates text as it is appended (ISA-L's igzip at level 1: several times zlib's fastest
// level, and this text still shrinks about 25 times), holding only the compressed bytes.
class DeflatedTextWriter {
public:
    DeflatedTextWriter();
    ~DeflatedTextWriter();
    DeflatedTextWriter(const DeflatedTextWriter&) = delete;
    DeflatedTextWriter& operator=(const DeflatedTextWriter&) = delete;

    void append(QByteArrayView text);
    // The text so far, its blocks flushed to a byte boundary; the writer is then spent.
    DeflatedText finish();

private:
    struct Stream;
    std::unique_ptr<Stream> m_stream;
    DeflatedText m_text;
    QByteArray m_blocks; // deflated so far: one run of blocks
};

} // namespace groupscope::exporter
