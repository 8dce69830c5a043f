#pragma once

#include "kafka/GroupTypes.h"

#include <QColor>
#include <QPalette>

namespace groupscope::ui {

// The timeline's colours, derived from the widget's palette so a light and a dark desktop
// both get a legible plot. State shading stays faint: it sits behind the member colours.
struct TimelineTheme {
    bool dark = false;
    QColor background;     // the plot area
    QColor laneStripe;     // every other lane, for following a lane across a wide plot
    QColor text;           // labels
    QColor mutedText;      // axis ticks, secondary labels
    QColor grid;           // time grid
    QColor topicSeparator; // between the lanes of two topics
    QColor boundary;       // generation boundary lines
    QColor now;            // the "now" marker
    QColor unowned;        // hatch of stretches nobody owned
    QColor highlight;      // hover

    static TimelineTheme fromPalette(const QPalette& palette);
    // Shading of a state span; invalid (no shading) for Stable and Unknown.
    QColor stateShade(kafka::GroupState state) const;
    // A solid, legible version of the state's colour for legends and tooltips.
    QColor stateColour(kafka::GroupState state) const;
};

} // namespace groupscope::ui
