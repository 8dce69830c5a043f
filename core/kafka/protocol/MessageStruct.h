#pragma once
// A message's (or nested structure's) values, addressed by the field names of its
// MessageSpec. Requests are built by setting fields; decoded responses are read the same
// way. A field that is not set reads as its default, so code written for the newest
// version reads older versions' answers without special cases.

#include "kafka/protocol/MessageSchema.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <variant>
#include <vector>

namespace groupscope::kafka::protocol {

class Struct;
using StructList = std::vector<Struct>;

class Struct {
public:
    // The null value of a nullable string, bytes or array field.
    struct Null {};
    using Value = std::variant<std::monostate, Null, bool, int64_t, double, QString, QByteArray,
                               QList<int64_t>, QStringList, QList<QByteArray>, StructList>;

    Struct() = default;
    // A structure with the given fields (a message's top level, or a nested structure's).
    explicit Struct(const std::vector<FieldSpec>* fields);

    // Setters; each returns *this so a request reads as one expression. Setting a name
    // the schema does not have is a programming error (asserted in debug builds).
    Struct& set(const char* name, int64_t value);
    Struct& set(const char* name, int value) { return set(name, int64_t(value)); }
    Struct& setBool(const char* name, bool value);
    Struct& set(const char* name, const QString& value);
    Struct& set(const char* name, const QByteArray& value); // bytes and uuid fields
    Struct& set(const char* name, const QList<int64_t>& values);
    Struct& set(const char* name, const QStringList& values);
    Struct& set(const char* name, const StructList& elements); // a StructArray field
    Struct& setNull(const char* name);
    // Appends a new element to a StructArray field, or sets a Struct field, and returns it.
    Struct& add(const char* name);

    int64_t integer(const char* name) const;
    bool boolean(const char* name) const;
    double float64(const char* name) const;
    QString string(const char* name) const;
    QByteArray bytes(const char* name) const; // also uuid fields
    QList<int64_t> integers(const char* name) const;
    QStringList strings(const char* name) const;
    QList<QByteArray> uuids(const char* name) const;
    const StructList& structs(const char* name) const;
    // A Struct field, or an empty structure of its schema when absent.
    Struct child(const char* name) const;
    bool isNull(const char* name) const;

    const std::vector<FieldSpec>* fields() const { return m_fields; }
    // Codec access: the value at the schema's field index (monostate when not set).
    const Value& valueAt(size_t index) const;
    void setValueAt(size_t index, Value value);

private:
    // The index of `name` in the schema; asserts and returns -1 for an unknown name.
    int indexOf(const char* name) const;
    const Value* find(const char* name) const;

    const std::vector<FieldSpec>* m_fields = nullptr;
    std::vector<Value> m_values;
};

} // namespace groupscope::kafka::protocol
