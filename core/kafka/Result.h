#pragma once

#include "kafka/KafkaError.h"

#include <utility>
#include <variant>

namespace groupscope::kafka {

// Either a value or the KafkaError that prevented it.
template <typename T> class Result {
public:
    Result(T value)
        : m_state(std::move(value)) {}
    Result(KafkaError error)
        : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<T>(m_state); }
    T& value() & { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    const KafkaError& error() const { return std::get<KafkaError>(m_state); }

private:
    std::variant<T, KafkaError> m_state;
};

// For calls that produce nothing but can fail.
struct Done {};
using Status = Result<Done>;

} // namespace groupscope::kafka
