#pragma once
// The declarative description of Kafka protocol messages: each message's fields, their
// types and the versions each exists in, as Kafka's own message specifications
// (clients/src/main/resources/common/message/*.json) define them. MessageCodec derives the
// encoding and decoding of every version from one such description, so adding a field or
// a version is one line here, never new byte handling.

#include "kafka/protocol/FieldName.h"

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace groupscope::kafka::protocol {

// The versions something exists in: first..last, last = open meaning "and every later one".
struct Versions {
    static constexpr int16_t open = INT16_MAX;
    int16_t first = 0;
    int16_t last = open;

    constexpr bool contains(int16_t version) const { return version >= first && version <= last; }
    constexpr bool isEmpty() const { return first > last; }
};

// "0+", "4+": from a version on.
constexpr Versions since(int16_t first) {
    return Versions{first, Versions::open};
}
// "0-3": a closed range.
constexpr Versions between(int16_t first, int16_t last) {
    return Versions{first, last};
}
// "none": a field that is never nullable, never tagged, or a message never flexible.
constexpr Versions never() {
    return Versions{1, 0};
}

enum class FieldType : uint8_t {
    Bool,
    Int8,
    Int16,
    Uint16, // kept as its value, 0 to 65535 (a port)
    Int32,
    Int64,
    Float64,
    Uuid, // 16 bytes; kept as a 16-byte QByteArray
    String,
    Bytes,
    Int16Array, // kept as int64 values, like Int32Array
    Int32Array,
    Int64Array,
    StringArray,
    UuidArray,
    Struct,      // a single nested structure (fields below)
    StructArray, // an array of nested structures (fields below)
};

struct FieldSpec {
    const char* name = "";
    FieldType type = FieldType::Int32;
    Versions versions;
    Versions nullableVersions = never();
    // A tagged field (flexible versions only) is written only when it differs from its
    // default, under its tag number, after the structure's other fields.
    Versions taggedVersions = never();
    int tag = -1;
    // The value of an integer or bool field when it is absent from a version or not set
    // (Kafka's "default"); strings default to empty, arrays to empty.
    int64_t defaultValue = 0;
    // A nullable string or array whose default is null rather than empty.
    bool defaultsToNull = false;
    std::vector<FieldSpec> fields; // Struct and StructArray only

    FieldSpec nullable(Versions versions) && {
        nullableVersions = versions;
        return std::move(*this);
    }
    FieldSpec taggedIn(Versions versions, int tagNumber) && {
        taggedVersions = versions;
        tag = tagNumber;
        return std::move(*this);
    }
    FieldSpec defaultsTo(int64_t value) && {
        defaultValue = value;
        return std::move(*this);
    }
    FieldSpec nullByDefault() && {
        defaultsToNull = true;
        return std::move(*this);
    }
};

inline FieldSpec field(FieldName name, FieldType type, Versions versions) {
    FieldSpec spec;
    spec.name = name.c_str();
    spec.type = type;
    spec.versions = versions;
    return spec;
}

inline FieldSpec structArray(FieldName name, Versions versions, std::vector<FieldSpec> fields) {
    FieldSpec spec = field(name, FieldType::StructArray, versions);
    spec.fields = std::move(fields);
    return spec;
}

inline FieldSpec structField(FieldName name, Versions versions, std::vector<FieldSpec> fields) {
    FieldSpec spec = field(name, FieldType::Struct, versions);
    spec.fields = std::move(fields);
    return spec;
}

// A request or a response: its versions, the versions encoded "flexibly" (compact
// lengths, tagged fields) and its top-level fields.
struct MessageSpec {
    const char* name = "";
    Versions validVersions;
    Versions flexibleVersions = never();
    std::vector<FieldSpec> fields;
};

// Kafka's API keys for the requests Groupscope sends itself.
enum class ApiKey : int16_t {
    Fetch = 1,
    ListOffsets = 2,
    Metadata = 3,
    OffsetCommit = 8,
    OffsetFetch = 9,
    FindCoordinator = 10,
    DescribeGroups = 15,
    ListGroups = 16,
    SaslHandshake = 17,
    ApiVersions = 18,
    CreateTopics = 19,
    DescribeConfigs = 32,
    DeleteGroups = 42,
    OffsetDelete = 47,
    SaslAuthenticate = 36,
    ConsumerGroupDescribe = 69,
    ShareGroupDescribe = 77,
    StreamsGroupDescribe = 89,
    DescribeShareGroupOffsets = 90,
    AlterShareGroupOffsets = 91,
    DeleteShareGroupOffsets = 92,
};

// One API: the request and the response share the API's version numbers. The versions
// Groupscope can speak are the request's valid versions; ApiVersions narrows them to what
// the broker speaks too.
struct ApiSpec {
    ApiKey key;
    const char* name;
    MessageSpec request;
    MessageSpec response;
};

} // namespace groupscope::kafka::protocol
