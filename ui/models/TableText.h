#pragma once

#include <QLocale>
#include <QString>

#include <optional>

namespace groupscope::ui::tableText {

// An en dash for "no value", which is not the same as zero (no commit means no lag).
inline QString none() {
    return QStringLiteral("\u2013");
}

inline QString offset(int64_t value) {
    return value < 0 ? none() : QString::number(value);
}

inline QString offset(const std::optional<int64_t>& value) {
    return value ? QString::number(*value) : none();
}

// "+12" / "-3" / "0": the sign says skipped (+) or replayed (-).
inline QString signedNumber(const std::optional<int64_t>& value) {
    if (!value)
        return none();
    return (*value > 0 ? QStringLiteral("+") : QString()) + QString::number(*value);
}

} // namespace groupscope::ui::tableText
