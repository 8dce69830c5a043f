#include "plots/ChartColors.h"

namespace groupscope::ui {

namespace {

// `amount` of the way from `from` to `to`.
QColor mix(const QColor& from, const QColor& to, double amount) {
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * amount),
                            float(from.greenF() + (to.greenF() - from.greenF()) * amount),
                            float(from.blueF() + (to.blueF() - from.blueF()) * amount));
}

} // namespace

ChartColors ChartColors::fromPalette(const QPalette& palette) {
    ChartColors colors;
    colors.background = palette.color(QPalette::Base);
    colors.text = palette.color(QPalette::Text);
    colors.dark = colors.background.lightnessF() < 0.5;
    colors.mutedText = mix(colors.text, colors.background, 0.45);
    colors.axis = mix(colors.text, colors.background, 0.55);
    colors.grid = mix(colors.text, colors.background, colors.dark ? 0.82 : 0.88);
    colors.subGrid = mix(colors.text, colors.background, colors.dark ? 0.91 : 0.95);
    colors.historyShade = mix(colors.text, colors.background, colors.dark ? 0.95 : 0.965);
    // Not the tooltip colours: many themes leave them pale yellow even on a dark desktop.
    colors.readoutBackground = mix(colors.background, colors.text, colors.dark ? 0.1 : 0.03);
    colors.readoutText = colors.text;
    colors.total = mix(colors.text, colors.background, 0.15);
    colors.timeLag = colors.dark ? QColor(0xff, 0x7b, 0x7d) : QColor(0xd6, 0x27, 0x28);
    // Tableau 10 without its red, which marks the time lag.
    static const QList<QColor> tableau{
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
        QColor(0x76, 0xb7, 0xb2), QColor(0xb0, 0x7a, 0xa1), QColor(0xed, 0xc9, 0x48),
        QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7), QColor(0xba, 0xb0, 0xac)};
    for (const QColor& color : tableau)
        colors.series.append(colors.dark ? color.lighter(125) : color.darker(105));
    return colors;
}

} // namespace groupscope::ui
