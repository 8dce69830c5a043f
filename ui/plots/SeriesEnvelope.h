#pragma once

#include <qcustomplot.h>

#include <array>

namespace groupscope::ui {

// A series with coarse companions for wide views: graphs holding the minimum and the
// maximum of each block of samples, in time order, one graph per block size. Spikes survive
// (an envelope keeps the extremes), while QCustomPlot's adaptive sampling, which walks every
// point in view on every replot, and the line drawing after it get far fewer points: a day
// of 2 s samples is 43,200 points, its 64-sample envelope 1,350.
//
// Level 0 is the series itself; level n draws the envelope of blockSizes[n - 1]. The
// companions get the series' data and pen, never anything else, and no legend entry.
class SeriesEnvelope {
public:
    static constexpr std::array<int, 2> blockSizes{8, 64};
    static constexpr int levelCount = int(blockSizes.size()) + 1;

    explicit SeriesEnvelope(QCPGraph* source);

    QCPGraph* source() const { return m_source; }
    QCPGraph* level(int index) const { return index == 0 ? m_source : m_envelopes[index - 1]; }
    // Shows the graph of `level` (when `shown`) and hides the others.
    void show(bool shown, int level);
    void setPen(const QPen& pen);
    void setAntialiased(bool antialiased);
    // Removes the companions from the plot (the source stays: it is the caller's).
    void removeCompanions();

    // After points were inserted anywhere but the end, or removed.
    void rebuild();
    // After points were appended at the end of the source: completes the blocks it can.
    void appendNewest();

private:
    void appendBlocks(int index);

    QCPGraph* m_source;
    std::array<QCPGraph*, blockSizes.size()> m_envelopes{};
    std::array<int, blockSizes.size()> m_consumed{}; // source points already in blocks
};

} // namespace groupscope::ui
