#include "plots/SeriesEnvelope.h"

#include <cmath>
#include <limits>

namespace groupscope::ui {

SeriesEnvelope::SeriesEnvelope(QCPGraph* source)
    : m_source(source) {
    QCustomPlot* plot = source->parentPlot();
    for (QCPGraph*& envelope : m_envelopes) {
        envelope = plot->addGraph(source->keyAxis(), source->valueAxis());
        envelope->removeFromLegend();
        envelope->setVisible(false);
        envelope->setLayer(source->layer());
    }
}

void SeriesEnvelope::show(bool shown, int level) {
    for (int index = 0; index < levelCount; ++index)
        this->level(index)->setVisible(shown && index == level);
}

void SeriesEnvelope::setPen(const QPen& pen) {
    for (int index = 0; index < levelCount; ++index)
        level(index)->setPen(pen);
}

void SeriesEnvelope::setAntialiased(bool antialiased) {
    for (int index = 0; index < levelCount; ++index)
        level(index)->setAntialiased(antialiased);
}

void SeriesEnvelope::removeCompanions() {
    for (QCPGraph*& envelope : m_envelopes) {
        envelope->parentPlot()->removeGraph(envelope);
        envelope = nullptr;
    }
}

void SeriesEnvelope::rebuild() {
    for (size_t index = 0; index < m_envelopes.size(); ++index) {
        m_envelopes[index]->data()->clear();
        m_consumed[index] = 0;
        appendBlocks(int(index));
    }
}

void SeriesEnvelope::appendNewest() {
    for (size_t index = 0; index < m_envelopes.size(); ++index)
        appendBlocks(int(index));
}

void SeriesEnvelope::appendBlocks(int index) {
    const auto data = m_source->data();
    const int blockSize = blockSizes[size_t(index)];
    QCPGraph* envelope = m_envelopes[size_t(index)];
    int& consumed = m_consumed[size_t(index)];
    while (data->size() - consumed >= blockSize) {
        const auto begin = data->constBegin() + consumed;
        const auto end = begin + blockSize;
        consumed += blockSize;
        auto lowest = end;
        auto highest = end;
        for (auto it = begin; it != end; ++it) {
            if (std::isnan(it->value))
                continue;
            if (lowest == end || it->value < lowest->value)
                lowest = it;
            if (highest == end || it->value > highest->value)
                highest = it;
        }
        if (lowest == end) {
            // A block without values: a gap, as in the source.
            envelope->addData(begin->key, std::numeric_limits<double>::quiet_NaN());
            continue;
        }
        // In time order, so the line passes both extremes the way the source does.
        const auto first = lowest->key <= highest->key ? lowest : highest;
        const auto second = first == lowest ? highest : lowest;
        envelope->addData(first->key, first->value);
        if (second != first)
            envelope->addData(second->key, second->value);
    }
}

} // namespace groupscope::ui
