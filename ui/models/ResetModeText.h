#pragma once

#include "offsets/ResetSpec.h"

#include <QCoreApplication>
#include <QList>

namespace groupscope::ui {

// The reset modes in the order the Mode combo offers them, with their short labels.
struct ResetModeText {
    Q_DECLARE_TR_FUNCTIONS(ResetModeText)
public:
    static QList<offsets::ResetMode> all() {
        using offsets::ResetMode;
        return {ResetMode::ToOffset,  ResetMode::ToDatetime, ResetMode::ByDuration,
                ResetMode::ShiftBy,   ResetMode::ToEarliest, ResetMode::ToLatest,
                ResetMode::ToCurrent, ResetMode::ToGroup};
    }
    static QString label(offsets::ResetMode mode) {
        using offsets::ResetMode;
        switch (mode) {
        case ResetMode::ToOffset:
            return tr("offset");
        case ResetMode::ToDatetime:
            return tr("datetime");
        case ResetMode::ByDuration:
            return tr("duration");
        case ResetMode::ShiftBy:
            return tr("shift");
        case ResetMode::ToEarliest:
            return tr("earliest");
        case ResetMode::ToLatest:
            return tr("latest");
        case ResetMode::ToCurrent:
            return tr("current");
        case ResetMode::ToGroup:
            return tr("group");
        }
        return {};
    }
    static bool takesValue(offsets::ResetMode mode) {
        using offsets::ResetMode;
        return mode == ResetMode::ToOffset || mode == ResetMode::ToDatetime ||
               mode == ResetMode::ByDuration || mode == ResetMode::ShiftBy ||
               mode == ResetMode::ToGroup;
    }
    // What the Value editor expects, for placeholders and refusals.
    static QString hint(offsets::ResetMode mode) {
        using offsets::ResetMode;
        switch (mode) {
        case ResetMode::ToOffset:
            return tr("an offset: a whole number ≥ 0");
        case ResetMode::ToDatetime:
            return tr(
                "yyyy-MM-ddTHH:mm:ss[.SSS][zone], e.g. 2024-01-31T12:00:00+01:00 (no zone = UTC)");
        case ResetMode::ByDuration:
            return tr("an ISO-8601 duration back from now, e.g. PT1H30M or P1D");
        case ResetMode::ShiftBy:
            return tr("a signed shift, e.g. -100 (replay) or 50 (skip)");
        case ResetMode::ToGroup:
            return tr("a group id: this partition goes where that group has committed");
        default:
            return tr("no value");
        }
    }
};

} // namespace groupscope::ui
