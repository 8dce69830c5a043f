#include "kafka/protocol/MessageStruct.h"

#include <QtDebug>

#include <cstring>

namespace groupscope::kafka::protocol {

namespace {

const StructList& emptyStructList() {
    static const StructList empty;
    return empty;
}

const Struct::Value& unsetValue() {
    static const Struct::Value unset;
    return unset;
}

} // namespace

Struct::Struct(const std::vector<FieldSpec>* fields)
    : m_fields(fields)
    , m_values(fields ? fields->size() : 0) {}

int Struct::indexOf(FieldName name) const {
    if (m_fields) {
        for (size_t i = 0; i < m_fields->size(); ++i) {
            if (std::strcmp((*m_fields)[i].name, name.c_str()) == 0)
                return int(i);
        }
    }
    // A name the schema lacks is a typo in Groupscope's code: loud in every build type (a
    // test fails on it), harmless to the user (the default value is read).
    qWarning("protocol::Struct: the schema has no field %s", name.c_str());
    return -1;
}

const Struct::Value* Struct::find(FieldName name) const {
    const int index = indexOf(name);
    return index < 0 ? nullptr : &m_values[size_t(index)];
}

const Struct::Value& Struct::valueAt(size_t index) const {
    return index < m_values.size() ? m_values[index] : unsetValue();
}

void Struct::setValueAt(size_t index, Value value) {
    if (index < m_values.size())
        m_values[index] = std::move(value);
}

Struct& Struct::set(FieldName name, int64_t value) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = value;
    return *this;
}

Struct& Struct::setBool(FieldName name, bool value) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = value;
    return *this;
}

Struct& Struct::set(FieldName name, const QString& value) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = value;
    return *this;
}

Struct& Struct::set(FieldName name, const QByteArray& value) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = value;
    return *this;
}

Struct& Struct::set(FieldName name, const QList<int64_t>& values) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = values;
    return *this;
}

Struct& Struct::set(FieldName name, const QStringList& values) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = values;
    return *this;
}

Struct& Struct::set(FieldName name, const StructList& elements) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = elements;
    return *this;
}

Struct& Struct::setNull(FieldName name) {
    if (const int index = indexOf(name); index >= 0)
        m_values[size_t(index)] = Null{};
    return *this;
}

Struct& Struct::add(FieldName name) {
    const int index = indexOf(name);
    static Struct nowhere; // only reached after the assertion above, in release builds
    if (index < 0)
        return nowhere = Struct();
    Value& value = m_values[size_t(index)];
    if (!std::holds_alternative<StructList>(value))
        value = StructList();
    StructList& list = std::get<StructList>(value);
    const FieldSpec& spec = (*m_fields)[size_t(index)];
    if (spec.type == FieldType::Struct)
        list.clear();
    list.emplace_back(&spec.fields);
    return list.back();
}

int64_t Struct::integer(FieldName name) const {
    const int index = indexOf(name);
    if (index < 0)
        return 0;
    const Value& value = m_values[size_t(index)];
    if (const auto* number = std::get_if<int64_t>(&value))
        return *number;
    if (const auto* flag = std::get_if<bool>(&value))
        return *flag ? 1 : 0;
    return (*m_fields)[size_t(index)].defaultValue;
}

bool Struct::boolean(FieldName name) const {
    return integer(name) != 0;
}

double Struct::float64(FieldName name) const {
    const Value* value = find(name);
    const auto* number = value ? std::get_if<double>(value) : nullptr;
    return number ? *number : 0.0;
}

QString Struct::string(FieldName name) const {
    const Value* value = find(name);
    const auto* text = value ? std::get_if<QString>(value) : nullptr;
    return text ? *text : QString();
}

QByteArray Struct::bytes(FieldName name) const {
    const Value* value = find(name);
    const auto* data = value ? std::get_if<QByteArray>(value) : nullptr;
    return data ? *data : QByteArray();
}

QList<int64_t> Struct::integers(FieldName name) const {
    const Value* value = find(name);
    const auto* list = value ? std::get_if<QList<int64_t>>(value) : nullptr;
    return list ? *list : QList<int64_t>();
}

QStringList Struct::strings(FieldName name) const {
    const Value* value = find(name);
    const auto* list = value ? std::get_if<QStringList>(value) : nullptr;
    return list ? *list : QStringList();
}

QList<QByteArray> Struct::uuids(FieldName name) const {
    const Value* value = find(name);
    const auto* list = value ? std::get_if<QList<QByteArray>>(value) : nullptr;
    return list ? *list : QList<QByteArray>();
}

const StructList& Struct::structs(FieldName name) const {
    const Value* value = find(name);
    const auto* list = value ? std::get_if<StructList>(value) : nullptr;
    return list ? *list : emptyStructList();
}

Struct Struct::child(FieldName name) const {
    const int index = indexOf(name);
    if (index < 0)
        return Struct();
    const StructList& list = structs(name);
    return list.empty() ? Struct(&(*m_fields)[size_t(index)].fields) : list.front();
}

bool Struct::isNull(FieldName name) const {
    const int index = indexOf(name);
    if (index < 0)
        return false;
    const Value& value = m_values[size_t(index)];
    if (std::holds_alternative<Null>(value))
        return true;
    return std::holds_alternative<std::monostate>(value) &&
           (*m_fields)[size_t(index)].defaultsToNull;
}

bool Struct::has(FieldName name) const {
    const Value* value = find(name);
    return value && !std::holds_alternative<std::monostate>(*value);
}

} // namespace groupscope::kafka::protocol
