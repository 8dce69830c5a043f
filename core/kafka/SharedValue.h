#pragma once

#include <QExplicitlySharedDataPointer>
#include <QSharedData>

#include <concepts>
#include <utility>

namespace groupscope::kafka {

// A value in the space of a pointer, for fields of values kept by the hundred thousand
// whose content is mostly empty (a partition row's error, a polled group's trend): null
// while empty, else shared by the copies until one of them is written (copy on write).
// Reading an empty one reads a default T; an equality-comparable T equal to T{} is stored
// as null.
template <typename T> class SharedValue {
public:
    SharedValue() = default;
    SharedValue(T value) { // implicit, as the T it stands for
        if constexpr (std::equality_comparable<T>)
            if (value == T{})
                return;
        m_data = new Data;
        m_data->value = std::move(value);
    }

    const T& get() const { return m_data ? m_data->value : empty(); }
    operator const T&() const { return get(); }
    const T& operator*() const { return get(); }
    const T* operator->() const { return &get(); }
    // Writing: the value, made this copy's own first. Only here, never through `->`, so
    // that reading a non-const one never allocates.
    T& edit() {
        if (!m_data)
            m_data = new Data;
        else
            m_data.detach();
        return m_data->value;
    }
    bool isEmpty() const { return !m_data; }

    friend bool operator==(const SharedValue& a,
                           const SharedValue& b) requires std::equality_comparable<T> {
        return a.get() == b.get();
    }

private:
    struct Data : QSharedData {
        T value;
    };
    static const T& empty() {
        static const T value{};
        return value;
    }
    QExplicitlySharedDataPointer<Data> m_data;
};

} // namespace groupscope::kafka
