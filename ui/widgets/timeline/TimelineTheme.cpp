#include "widgets/timeline/TimelineTheme.h"

namespace groupscope::ui {

namespace {

QColor withAlpha(QColor colour, int alpha) {
    colour.setAlpha(alpha);
    return colour;
}

QColor mix(const QColor& a, const QColor& b, double amountOfB) {
    const double keep = 1.0 - amountOfB;
    return QColor::fromRgbF(float(a.redF() * keep + b.redF() * amountOfB),
                            float(a.greenF() * keep + b.greenF() * amountOfB),
                            float(a.blueF() * keep + b.blueF() * amountOfB));
}

} // namespace

TimelineTheme TimelineTheme::fromPalette(const QPalette& palette) {
    TimelineTheme theme;
    theme.background = palette.color(QPalette::Base);
    theme.text = palette.color(QPalette::Text);
    theme.dark = theme.background.lightnessF() < 0.5f;
    theme.mutedText = mix(theme.background, theme.text, 0.62);
    theme.laneStripe = mix(theme.background, theme.text, theme.dark ? 0.045 : 0.03);
    theme.grid = mix(theme.background, theme.text, theme.dark ? 0.16 : 0.11);
    theme.topicSeparator = mix(theme.background, theme.text, 0.35);
    theme.boundary = mix(theme.background, theme.text, theme.dark ? 0.62 : 0.55);
    theme.now = theme.dark ? QColor(0xff6b6b) : QColor(0xd62728);
    theme.unowned = mix(theme.background, theme.text, theme.dark ? 0.38 : 0.32);
    theme.highlight = palette.color(QPalette::Highlight);
    return theme;
}

QColor TimelineTheme::stateColour(kafka::GroupState state) const {
    switch (state) {
    case kafka::GroupState::PreparingRebalance:
        return dark ? QColor(0xf5a742) : QColor(0xd9822b);
    case kafka::GroupState::CompletingRebalance:
        return dark ? QColor(0xf7d154) : QColor(0xc9a227);
    case kafka::GroupState::Assigning:
    case kafka::GroupState::Reconciling:
    case kafka::GroupState::NotReady:
        // Consumer-protocol groups keep consuming while they reconcile: a calm colour.
        return dark ? QColor(0x6cb4ee) : QColor(0x2f7fc1);
    case kafka::GroupState::Empty:
        return mutedText;
    case kafka::GroupState::Dead:
        return dark ? QColor(0xff6b6b) : QColor(0xc0392b);
    case kafka::GroupState::Stable:
    case kafka::GroupState::Unknown:
        break;
    }
    return {};
}

QColor TimelineTheme::stateShade(kafka::GroupState state) const {
    switch (state) {
    case kafka::GroupState::PreparingRebalance:
    case kafka::GroupState::CompletingRebalance:
    case kafka::GroupState::Dead:
        return withAlpha(stateColour(state), dark ? 80 : 85);
    case kafka::GroupState::Assigning:
    case kafka::GroupState::Reconciling:
    case kafka::GroupState::NotReady:
        return withAlpha(stateColour(state), dark ? 40 : 28);
    case kafka::GroupState::Empty:
        return withAlpha(text, dark ? 30 : 18);
    case kafka::GroupState::Stable:
    case kafka::GroupState::Unknown:
        break;
    }
    return {};
}

} // namespace groupscope::ui
