#include "cli/GroupListFilter.h"

#include <QStringList>

namespace groupscope::cli {

namespace {

const QList<kafka::GroupState> listableStates{kafka::GroupState::PreparingRebalance,
                                              kafka::GroupState::CompletingRebalance,
                                              kafka::GroupState::Stable,
                                              kafka::GroupState::Dead,
                                              kafka::GroupState::Empty,
                                              kafka::GroupState::Assigning,
                                              kafka::GroupState::Reconciling};

QStringList namesIn(const QString& list) {
    QStringList names;
    for (const QString& name : list.split(u',', Qt::SkipEmptyParts))
        names.append(name.trimmed());
    return names;
}

} // namespace

std::optional<GroupListFilter> GroupListFilter::parse(const std::optional<QString>& stateOption,
                                                      const std::optional<QString>& typeOption,
                                                      QString* error) {
    GroupListFilter filter;
    filter.m_showsState = stateOption.has_value();
    filter.m_showsType = typeOption.has_value();
    for (const QString& name : namesIn(stateOption.value_or(QString()))) {
        const kafka::GroupState state = kafka::groupStateFromName(name);
        if (state == kafka::GroupState::Unknown) {
            QStringList valid;
            for (kafka::GroupState known : listableStates)
                valid.append(kafka::groupStateName(known));
            *error = QStringLiteral("invalid state list '%1'. Valid states are: %2")
                         .arg(*stateOption, valid.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        filter.m_states.append(state);
    }
    for (const QString& name : namesIn(typeOption.value_or(QString()))) {
        const auto type = kafka::groupTypeFromName(name);
        if (!type) {
            *error =
                QStringLiteral(
                    "invalid types list '%1'. Valid types are: Classic, Consumer, Share, Streams")
                    .arg(*typeOption);
            return std::nullopt;
        }
        filter.m_types.append(*type);
    }
    return filter;
}

bool GroupListFilter::accepts(const kafka::GroupListing& group) const {
    return (m_states.isEmpty() || m_states.contains(group.state)) &&
           (m_types.isEmpty() || m_types.contains(group.type));
}

} // namespace groupscope::cli
