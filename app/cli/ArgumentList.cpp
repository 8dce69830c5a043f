#include "cli/ArgumentList.h"

namespace groupscope::cli {

bool ArgumentList::takeFlag(const QString& name) {
    return m_words.removeAll(name) > 0;
}

QStringList ArgumentList::takeValues(const QString& name) {
    QStringList values;
    const QString withEquals = name + u'=';
    for (qsizetype i = 0; i < m_words.size();) {
        if (m_words[i] == name) {
            if (i + 1 >= m_words.size() || (m_words[i + 1].startsWith(QStringLiteral("--")))) {
                if (m_error.isEmpty())
                    m_error = QStringLiteral("%1 needs a value").arg(name);
                m_words.removeAt(i);
                continue;
            }
            values.append(m_words[i + 1]);
            m_words.remove(i, 2);
        } else if (m_words[i].startsWith(withEquals)) {
            values.append(m_words[i].mid(withEquals.size()));
            m_words.removeAt(i);
        } else {
            ++i;
        }
    }
    return values;
}

std::optional<QString> ArgumentList::takeValue(const QString& name) {
    const QStringList values = takeValues(name);
    if (values.isEmpty())
        return std::nullopt;
    return values.last();
}

std::optional<QString> ArgumentList::takeOptionalValue(const QString& name) {
    std::optional<QString> value;
    const QString withEquals = name + u'=';
    for (qsizetype i = 0; i < m_words.size();) {
        if (m_words[i] == name) {
            const bool hasValue =
                i + 1 < m_words.size() && !m_words[i + 1].startsWith(QStringLiteral("--"));
            value = hasValue ? m_words[i + 1] : QString();
            m_words.remove(i, hasValue ? 2 : 1);
        } else if (m_words[i].startsWith(withEquals)) {
            value = m_words[i].mid(withEquals.size());
            m_words.removeAt(i);
        } else {
            ++i;
        }
    }
    return value;
}

std::optional<QString> ArgumentList::takePositional() {
    for (qsizetype i = 0; i < m_words.size(); ++i)
        if (!m_words[i].startsWith(u'-') || m_words[i] == u'-')
            return m_words.takeAt(i);
    return std::nullopt;
}

} // namespace groupscope::cli
