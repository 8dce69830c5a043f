#pragma once
// The label sets of the rows a family is written for, and writing a family of rows: shared
// by the view's render (MetricsRender) and the exporter's own figures (ClusterMetrics).

#include "export/ClusterMetrics.h"
#include "export/PrometheusText.h"

#include <QByteArray>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace groupscope::exporter {

// The `{...}` label sets of many rows, each row made of pieces of text shared with other
// rows (`,name="value"` for one or more labels), each piece written once: a group's name
// once for all its partitions, a topic's and a partition number's once for all groups. A
// million partitions' label sets written out whole took 134 MB at 100,000 groups (heaptrack);
// as pieces a row takes 16 bytes (20 with the member labels).
class LabelSets {
public:
    using Piece = uint32_t;
    // A piece of `labels` (PrometheusTextWriter::appendLabels).
    Piece piece(const QList<MetricLabel>& labels) {
        m_pieceStarts.push_back(m_pieces.size());
        PrometheusTextWriter::appendLabels(m_pieces, labels);
        return Piece(m_pieceStarts.size() - 1);
    }
    // A row whose labels are those of `pieces`, in order.
    void append(std::initializer_list<Piece> pieces) {
        m_rowStarts.push_back(uint32_t(m_rowPieces.size()));
        m_rowPieces.insert(m_rowPieces.end(), pieces);
    }
    void append(const QList<MetricLabel>& labels) { append({piece(labels)}); }
    // The label set of `row`, made in `scratch` (its capacity kept from row to row): each
    // thread that writes families at once has its own.
    QByteArrayView at(size_t row, QByteArray& scratch) const {
        const size_t end = row + 1 < m_rowStarts.size() ? m_rowStarts[row + 1] : m_rowPieces.size();
        qsizetype bytes = 0;
        for (size_t i = m_rowStarts[row]; i < end; ++i)
            bytes += pieceText(m_rowPieces[i]).size();
        if (bytes == 0)
            return {};
        // Sized once and copied into: a million rows a family, where an append per piece
        // was a call with its own checks each.
        scratch.resize(bytes + 1);
        char* out = scratch.data();
        for (size_t i = m_rowStarts[row]; i < end; ++i) {
            const QByteArrayView text = pieceText(m_rowPieces[i]);
            out = std::copy(text.begin(), text.end(), out);
        }
        scratch[0] = '{'; // the first label's comma
        *out = '}';
        return scratch;
    }

private:
    QByteArrayView pieceText(Piece piece) const {
        const qsizetype end =
            piece + 1 < m_pieceStarts.size() ? m_pieceStarts[piece + 1] : m_pieces.size();
        return QByteArrayView(m_pieces).sliced(m_pieceStarts[piece], end - m_pieceStarts[piece]);
    }

    QByteArray m_pieces;
    std::vector<qsizetype> m_pieceStarts;
    std::vector<Piece> m_rowPieces;
    std::vector<uint32_t> m_rowStarts; // where each row's pieces begin in m_rowPieces
};

// `rows[i]` is a Row (or a reference to one) for each i below rows.size().
template <typename Row, typename Rows>
void writeFamily(PrometheusTextWriter& writer, const MetricFamily<Row>& family, const Rows& rows,
                 const LabelSets& labelSets) {
    writer.beginFamily(family.name, QString::fromUtf8(family.help), family.type);
    QByteArray labelSet;
    for (size_t i = 0; i < rows.size(); ++i)
        if (const auto value = family.value(rows[i]))
            writer.sample(labelSets.at(i, labelSet), *value);
}

} // namespace groupscope::exporter
