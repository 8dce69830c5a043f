#include "records/ValueFormat.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringDecoder>

namespace groupscope::records {

namespace {

std::optional<QString> validUtf8(const QByteArray& bytes) {
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder.decode(bytes);
    if (decoder.hasError())
        return std::nullopt;
    return text;
}

bool hasControlCharacters(const QString& text) {
    for (const QChar c : text)
        if (c.unicode() < 0x20 && c != u'\n' && c != u'\r' && c != u'\t')
            return true;
    return false;
}

QString hex(const QByteArray& bytes) {
    return QString::fromLatin1(bytes.toHex(' '));
}

} // namespace

QString valueFormatName(ValueFormat format) {
    switch (format) {
    case ValueFormat::Json:
        return QStringLiteral("json");
    case ValueFormat::Hex:
        return QStringLiteral("hex");
    case ValueFormat::Text:
        break;
    }
    return QStringLiteral("text");
}

std::optional<ValueFormat> valueFormatFromName(const QString& name) {
    for (const ValueFormat format : {ValueFormat::Text, ValueFormat::Json, ValueFormat::Hex})
        if (name == valueFormatName(format))
            return format;
    return std::nullopt;
}

ValueFormat detectFormat(const QByteArray& bytes) {
    const QByteArray trimmed = bytes.trimmed();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        QJsonParseError error;
        QJsonDocument::fromJson(bytes, &error);
        if (error.error == QJsonParseError::NoError)
            return ValueFormat::Json;
    }
    const auto text = validUtf8(bytes);
    return text && !hasControlCharacters(*text) ? ValueFormat::Text : ValueFormat::Hex;
}

ValueFormat usableFormat(const QByteArray& bytes, ValueFormat wanted) {
    if (wanted == ValueFormat::Json) {
        QJsonParseError error;
        QJsonDocument::fromJson(bytes, &error);
        if (error.error == QJsonParseError::NoError)
            return ValueFormat::Json;
        wanted = ValueFormat::Text;
    }
    if (wanted == ValueFormat::Text && validUtf8(bytes))
        return ValueFormat::Text;
    return ValueFormat::Hex;
}

QString renderValue(const QByteArray& bytes, ValueFormat format, bool indented) {
    if (bytes.isNull())
        return QStringLiteral("null");
    switch (usableFormat(bytes, format)) {
    case ValueFormat::Json:
        return QString::fromUtf8(QJsonDocument::fromJson(bytes).toJson(
                                     indented ? QJsonDocument::Indented : QJsonDocument::Compact))
            .trimmed();
    case ValueFormat::Text:
        return *validUtf8(bytes);
    case ValueFormat::Hex:
        break;
    }
    return hex(bytes);
}

} // namespace groupscope::records
