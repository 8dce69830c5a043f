#pragma once

#include <QString>

#include <cstdint>

namespace groupscope::consumer {

// Where a partition should be positioned: an absolute offset, the first message at or
// after a timestamp, the log start, the log end, or the group's committed offset.
// Everything but Offset is resolved to an absolute offset by the reposition engine
// before it seeks, so the outcome always names the exact new position.
class RepositionTarget {
public:
    enum class Kind { Offset, Timestamp, Earliest, Latest, Committed };

    static RepositionTarget offset(int64_t offset) { return {Kind::Offset, offset}; }
    static RepositionTarget timestamp(int64_t millisecondsSinceEpoch) {
        return {Kind::Timestamp, millisecondsSinceEpoch};
    }
    static RepositionTarget earliest() { return {Kind::Earliest, 0}; }
    static RepositionTarget latest() { return {Kind::Latest, 0}; }
    static RepositionTarget committed() { return {Kind::Committed, 0}; }

    RepositionTarget() = default;

    Kind kind() const { return m_kind; }
    // The offset for Offset, milliseconds since the epoch for Timestamp, 0 otherwise.
    int64_t value() const { return m_value; }

    QString toString() const {
        switch (m_kind) {
        case Kind::Offset:
            return QStringLiteral("offset %1").arg(m_value);
        case Kind::Timestamp:
            return QStringLiteral("timestamp %1 ms").arg(m_value);
        case Kind::Earliest:
            return QStringLiteral("earliest");
        case Kind::Latest:
            return QStringLiteral("latest");
        case Kind::Committed:
            return QStringLiteral("committed");
        }
        return {};
    }

    friend bool operator==(const RepositionTarget&, const RepositionTarget&) = default;

private:
    RepositionTarget(Kind kind, int64_t value)
        : m_kind(kind)
        , m_value(value) {}

    Kind m_kind = Kind::Committed;
    int64_t m_value = 0;
};

} // namespace groupscope::consumer
