#pragma once
// A message's (or nested structure's) values, addressed by the field names of its
// MessageSpec. Requests are built by setting fields; decoded responses are read the same
// way. A field that is not set reads as its default, so code written for the newest
// version reads older versions' answers without special cases.

#include "kafka/protocol/FieldName.h"
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

    // Setters; each returns *this so a request reads as one expression. A name no spec has
    // does not compile (FieldName); one that this structure's schema lacks is a programming
    // error, warned about at run time.
    Struct& set(FieldName name, int64_t value);
    Struct& set(FieldName name, int value) { return set(name, int64_t(value)); }
    Struct& setBool(FieldName name, bool value);
    Struct& set(FieldName name, const QString& value);
    Struct& set(FieldName name, const QByteArray& value); // bytes and uuid fields
    Struct& set(FieldName name, const QList<int64_t>& values);
    Struct& set(FieldName name, const QStringList& values);
    Struct& set(FieldName name, const StructList& elements); // a StructArray field
    Struct& setNull(FieldName name);
    // Appends a new element to a StructArray field, or sets a Struct field, and returns it.
    Struct& add(FieldName name);

    int64_t integer(FieldName name) const;
    bool boolean(FieldName name) const;
    double float64(FieldName name) const;
    QString string(FieldName name) const;
    QByteArray bytes(FieldName name) const; // also uuid fields
    QList<int64_t> integers(FieldName name) const;
    QStringList strings(FieldName name) const;
    QList<QByteArray> uuids(FieldName name) const;
    const StructList& structs(FieldName name) const;
    // A Struct field, or an empty structure of its schema when absent.
    Struct child(FieldName name) const;
    bool isNull(FieldName name) const;
    // Whether the field was set or decoded, rather than reading as its default: a tagged
    // field the writer left out is not.
    bool has(FieldName name) const;

    const std::vector<FieldSpec>* fields() const { return m_fields; }
    // Codec access: the value at the schema's field index (monostate when not set).
    const Value& valueAt(size_t index) const;
    void setValueAt(size_t index, Value value);

private:
    // The index of `name` in the schema; asserts and returns -1 for an unknown name.
    int indexOf(FieldName name) const;
    const Value* find(FieldName name) const;

    const std::vector<FieldSpec>* m_fields = nullptr;
    std::vector<Value> m_values;
};

} // namespace groupscope::kafka::protocol
