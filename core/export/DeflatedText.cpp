#include "export/DeflatedText.h"

#include <QtEndian>

#include <algorithm>
#include <vector>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

namespace groupscope::exporter {

namespace {

constexpr int rawDeflate = -15; // window bits: raw deflate blocks, no zlib or gzip wrapper
constexpr int fastest = 1;

// Deflates `text` into `out` through `stream` (zlib's z_stream or ISA-L's isal_zstream,
// whose buffer fields are named alike), `deflateRound()` doing each round, until the stream
// has taken all of it and, for a flush, written everything it holds.
template <typename Stream, typename DeflateRound>
void deflateAll(Stream& stream, QByteArrayView text, QByteArray& out, DeflateRound deflateRound) {
    stream.next_in = reinterpret_cast<decltype(stream.next_in)>(const_cast<char*>(text.data()));
    stream.avail_in = decltype(stream.avail_in)(text.size());
    do {
        const qsizetype room = qMax<qsizetype>(64 * 1024, text.size() / 8);
        const qsizetype used = out.size();
        out.resize(used + room);
        stream.next_out = reinterpret_cast<decltype(stream.next_out)>(out.data() + used);
        stream.avail_out = decltype(stream.avail_out)(room);
        deflateRound();
        out.resize(out.size() - qsizetype(stream.avail_out));
    } while (stream.avail_in > 0 || stream.avail_out == 0);
}

// Level 1 raw deflate with zlib's default memory level 8: about 270 KB of state.
void startFastestRawDeflate(z_stream& stream) {
    ::deflateInit2(&stream, fastest, Z_DEFLATED, rawDeflate, 8, Z_DEFAULT_STRATEGY);
}

void appendLittleEndian(QByteArray& out, uint32_t value) {
    char bytes[4];
    qToLittleEndian(value, bytes);
    out.append(bytes, 4);
}

} // namespace

// ISA-L's deflate (igzip) at its level 1, raw blocks: the same format as zlib's, five times
// as fast on the exporter's text and smaller (zlib's level 1 was half of a render's time at
// 100,000 groups).
struct DeflatedTextWriter::Stream {
    isal_zstream z;
    std::vector<uint8_t> levelBuffer = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);

    Stream() {
        isal_deflate_init(&z);
        z.level = 1;
        z.level_buf = levelBuffer.data();
        z.level_buf_size = uint32_t(levelBuffer.size());
        z.gzip_flag = IGZIP_DEFLATE;
        z.end_of_stream = 0; // never a final block: more may follow (DeflatedText)
    }

    void deflate(QByteArrayView text, uint16_t flush, QByteArray& out) {
        z.flush = flush;
        deflateAll(z, text, out, [this] {
            // Fails only for a level, level buffer or flush that is not valid: set above.
            [[maybe_unused]] const int status = isal_deflate(&z);
            Q_ASSERT(status == COMP_OK);
        });
    }
};

DeflatedTextWriter::DeflatedTextWriter()
    : m_stream(std::make_unique<Stream>()) {}

DeflatedTextWriter::~DeflatedTextWriter() = default;

void DeflatedTextWriter::append(QByteArrayView text) {
    if (text.isEmpty())
        return;
    // The CRC-32 of gzip (and zlib's crc32), as zlib's crc32_combine joins them.
    m_text.crc32 = crc32_gzip_refl(
        m_text.crc32, reinterpret_cast<const unsigned char*>(text.data()), uint64_t(text.size()));
    m_text.textSize += text.size();
    m_stream->deflate(text, NO_FLUSH, m_blocks);
}

DeflatedText DeflatedTextWriter::finish() {
    // A sync flush ends on a byte boundary without a final block, so more may follow.
    m_stream->deflate({}, SYNC_FLUSH, m_blocks);
    m_blocks.squeeze();
    m_text.blocks = {std::move(m_blocks)};
    return std::move(m_text);
}

void DeflatedText::append(DeflatedText next) {
    crc32 = uint32_t(::crc32_combine(crc32, next.crc32, z_off_t(next.textSize)));
    textSize += next.textSize;
    // Runs under a megabyte next to each other are copied into one: a scrape writes each run
    // on its own, and Qt's socket sends one per turn of the event loop (a family of a few
    // groups deflates to a few hundred bytes). Big runs are never copied.
    constexpr qsizetype smallRun = 1 << 20;
    for (QByteArray& run : next.blocks) {
        if (!blocks.isEmpty() && blocks.last().size() < smallRun && run.size() < smallRun)
            blocks.last().append(run);
        else
            blocks.append(std::move(run));
    }
}

qsizetype DeflatedText::deflatedSize() const {
    qsizetype size = 0;
    for (const QByteArray& run : blocks)
        size += run.size();
    return size;
}

QByteArrayList DeflatedText::gzipWith(QByteArrayView tail) const {
    // RFC 1952: magic, deflate, no flags, no time, no extra flags, OS unknown.
    static const QByteArray header = QByteArray::fromHex("1f8b08000000000000ff");
    QByteArray end;
    z_stream stream{};
    startFastestRawDeflate(stream);
    // A stream of its own: it refers to nothing before.
    deflateAll(stream, tail, end, [&stream] { ::deflate(&stream, Z_FINISH); });
    ::deflateEnd(&stream);
    const auto tailCrc = ::crc32_z(
        ::crc32(0, nullptr, 0), reinterpret_cast<const Bytef*>(tail.data()), size_t(tail.size()));
    appendLittleEndian(end, uint32_t(::crc32_combine(crc32, tailCrc, z_off_t(tail.size()))));
    appendLittleEndian(end, uint32_t(uint64_t(textSize + tail.size()) & 0xffffffffu));
    QByteArrayList member{header};
    member.append(blocks);
    member.append(end);
    return member;
}

struct TextInflater::Stream {
    z_stream z{};
};

TextInflater::TextInflater(DeflatedText text)
    : m_text(std::move(text))
    , m_stream(std::make_unique<Stream>()) {
    ::inflateInit2(&m_stream->z, rawDeflate);
}

TextInflater::~TextInflater() {
    ::inflateEnd(&m_stream->z);
}

QByteArray TextInflater::next(qsizetype maxBytes) {
    // zlib counts in 32 bits: a piece stays well under that.
    const qsizetype wanted = std::min({maxBytes, m_text.textSize - m_written, qsizetype(1) << 30});
    if (wanted <= 0)
        return {};
    QByteArray piece(wanted, Qt::Uninitialized);
    z_stream& stream = m_stream->z;
    qsizetype filled = 0;
    // Inflated until the piece is full or zlib can give no more; it is asked even with
    // every block read, since it may hold output that did not fit the last piece.
    while (filled < wanted) {
        // The runs of blocks are one deflate stream: the next is read once one is used up.
        while (m_block + 1 < m_text.blocks.size() && m_read == m_text.blocks.at(m_block).size()) {
            ++m_block;
            m_read = 0;
        }
        const QByteArray run =
            m_block < m_text.blocks.size() ? m_text.blocks.at(m_block) : QByteArray();
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(run.data() + m_read));
        stream.avail_in = uInt(qMin(qsizetype(1) << 30, run.size() - m_read));
        stream.next_out = reinterpret_cast<Bytef*>(piece.data() + filled);
        stream.avail_out = uInt(wanted - filled);
        const uInt inBefore = stream.avail_in;
        const uInt outBefore = stream.avail_out;
        const int status = ::inflate(&stream, Z_SYNC_FLUSH);
        const uInt took = inBefore - stream.avail_in;
        const uInt gave = outBefore - stream.avail_out;
        m_read += took;
        filled += gave;
        if (status != Z_OK || (took == 0 && gave == 0))
            break; // the blocks are this program's own: only their end stops it
    }
    m_written += filled;
    if (filled < wanted)
        m_written = m_text.textSize; // ended early: nothing more will come
    piece.resize(filled);
    return piece;
}

} // namespace groupscope::exporter
