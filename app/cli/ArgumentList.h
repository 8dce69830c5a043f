#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace groupscope::cli {

// The words of a command line, consumed option by option. Options may stand anywhere and
// take their value as `--name value` or `--name=value`, as kafka-consumer-groups accepts.
// Whatever is left at the end is an error the caller reports as usage.
class ArgumentList {
public:
    explicit ArgumentList(QStringList words)
        : m_words(std::move(words)) {}

    // Removes every occurrence of a flag; true when there was at least one.
    bool takeFlag(const QString& name);
    // Removes the last value given for an option. A missing value is recorded as an error.
    std::optional<QString> takeValue(const QString& name);
    // Removes all values of a repeatable option, in order.
    QStringList takeValues(const QString& name);
    // An option whose value may be left out, as kafka-consumer-groups' `--list --state
    // [stable,empty]`: nullopt when absent, an empty string when given without a value
    // (the next word is another option, or there is none), else its last value.
    std::optional<QString> takeOptionalValue(const QString& name);
    // Removes and returns the first word that is not an option.
    std::optional<QString> takePositional();

    const QStringList& remaining() const { return m_words; }
    // The first problem seen (e.g. "--group needs a value"), empty when none.
    const QString& error() const { return m_error; }

private:
    QStringList m_words;
    QString m_error;
};

} // namespace groupscope::cli
