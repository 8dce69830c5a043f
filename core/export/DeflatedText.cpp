#include "export/DeflatedText.h"

#include <QtEndian>

#include <zlib.h>

namespace groupscope::exporter {

namespace {

constexpr int rawDeflate = -15; // window bits: raw deflate blocks, no zlib or gzip wrapper
constexpr int fastest = 1;

// Deflates `text` into `out` through `stream` until the stream has taken all of it and,
// for a flush, written everything it holds.
void deflateAll(z_stream& stream, QByteArrayView text, int flush, QByteArray& out) {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = uInt(text.size());
    do {
        const qsizetype room = qMax<qsizetype>(64 * 1024, text.size() / 8);
        const qsizetype used = out.size();
        out.resize(used + room);
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
        stream.avail_out = uInt(room);
        ::deflate(&stream, flush);
        out.resize(out.size() - qsizetype(stream.avail_out));
    } while (stream.avail_in > 0 || stream.avail_out == 0);
}

void appendLittleEndian(QByteArray& out, uint32_t value) {
    char bytes[4];
    qToLittleEndian(value, bytes);
    out.append(bytes, 4);
}

} // namespace

struct DeflatedTextWriter::Stream {
    z_stream z{};
};

DeflatedTextWriter::DeflatedTextWriter()
    : m_stream(std::make_unique<Stream>()) {
    m_text.crc32 = uint32_t(::crc32(0, nullptr, 0));
    // Level 1, 8 (zlib's default memory level): about 270 KB of state.
    ::deflateInit2(&m_stream->z, fastest, Z_DEFLATED, rawDeflate, 8, Z_DEFAULT_STRATEGY);
}

DeflatedTextWriter::~DeflatedTextWriter() {
    ::deflateEnd(&m_stream->z);
}

void DeflatedTextWriter::append(QByteArrayView text) {
    if (text.isEmpty())
        return;
    m_text.crc32 = uint32_t(
        ::crc32_z(m_text.crc32, reinterpret_cast<const Bytef*>(text.data()), size_t(text.size())));
    m_text.textSize += text.size();
    deflateInto(text, Z_NO_FLUSH);
}

DeflatedText DeflatedTextWriter::finish() {
    // A sync flush ends on a byte boundary without a final block, so more may follow.
    deflateInto({}, Z_SYNC_FLUSH);
    m_text.blocks.squeeze();
    return std::move(m_text);
}

void DeflatedTextWriter::deflateInto(QByteArrayView text, int flush) {
    deflateAll(m_stream->z, text, flush, m_text.blocks);
}

QByteArrayList DeflatedText::gzipWith(QByteArrayView tail) const {
    // RFC 1952: magic, deflate, no flags, no time, no extra flags, OS unknown.
    static const QByteArray header = QByteArray::fromHex("1f8b08000000000000ff");
    QByteArray end;
    z_stream stream{};
    ::deflateInit2(&stream, fastest, Z_DEFLATED, rawDeflate, 8, Z_DEFAULT_STRATEGY);
    deflateAll(stream, tail, Z_FINISH, end); // a stream of its own: it refers to nothing before
    ::deflateEnd(&stream);
    const auto tailCrc = ::crc32_z(
        ::crc32(0, nullptr, 0), reinterpret_cast<const Bytef*>(tail.data()), size_t(tail.size()));
    appendLittleEndian(end, uint32_t(::crc32_combine(crc32, tailCrc, z_off_t(tail.size()))));
    appendLittleEndian(end, uint32_t(uint64_t(textSize + tail.size()) & 0xffffffffu));
    return {header, blocks, end};
}

QByteArray DeflatedText::inflated() const {
    QByteArray text(textSize, Qt::Uninitialized);
    z_stream stream{};
    ::inflateInit2(&stream, rawDeflate);
    constexpr qsizetype step = qsizetype(1) << 30; // zlib counts in 32 bits
    qsizetype read = 0;
    qsizetype written = 0;
    while (read < blocks.size() && written < text.size()) {
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(blocks.data() + read));
        stream.avail_in = uInt(qMin(step, blocks.size() - read));
        stream.next_out = reinterpret_cast<Bytef*>(text.data() + written);
        stream.avail_out = uInt(qMin(step, text.size() - written));
        const uInt inBefore = stream.avail_in;
        const uInt outBefore = stream.avail_out;
        const int status = ::inflate(&stream, Z_SYNC_FLUSH);
        read += inBefore - stream.avail_in;
        written += outBefore - stream.avail_out;
        if (status != Z_OK)
            break; // the blocks are this writer's own: only their end stops it
    }
    ::inflateEnd(&stream);
    text.resize(written);
    return text;
}

} // namespace groupscope::exporter
