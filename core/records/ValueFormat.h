#pragma once
// How a key or value is shown: as text, as indented JSON, or as hex. Chosen from the bytes
// (JSON when they parse as a JSON object or array, text when they are valid UTF-8 without
// control characters, hex otherwise) and switchable by the user.

#include <QByteArray>
#include <QString>

#include <optional>

namespace groupscope::records {

enum class ValueFormat { Text, Json, Hex };

QString valueFormatName(ValueFormat format); // "text", "json", "hex"
std::optional<ValueFormat> valueFormatFromName(const QString& name);

ValueFormat detectFormat(const QByteArray& bytes);
// `wanted` when the bytes can be shown that way; otherwise text (valid UTF-8) or hex.
ValueFormat usableFormat(const QByteArray& bytes, ValueFormat wanted);

// The bytes in usableFormat(bytes, format); JSON indented when `indented`, on one line
// otherwise: nothing is ever shown as what it is not. A null value is "null".
QString renderValue(const QByteArray& bytes, ValueFormat format, bool indented = true);

} // namespace groupscope::records
