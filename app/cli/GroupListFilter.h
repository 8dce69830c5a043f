#pragma once

#include "kafka/GroupTypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace groupscope::cli {

// What `list --state [S,...] --type [T,...]` asks for, as Kafka 4.4's kafka-consumer-groups
// reads the two options: each alone adds its column; with a comma-separated list (any case)
// it also keeps only the groups in those states or of those types.
class GroupListFilter {
public:
    // From the two options' values as ArgumentList::takeOptionalValue gives them; nullopt
    // with `error` set when a name is not a state or type (the message names it and the
    // valid ones, like Kafka's tool).
    static std::optional<GroupListFilter> parse(const std::optional<QString>& stateOption,
                                                const std::optional<QString>& typeOption,
                                                QString* error);

    bool showsState() const { return m_showsState; }
    bool showsType() const { return m_showsType; }
    bool accepts(const kafka::GroupListing& group) const;

private:
    bool m_showsState = false;
    bool m_showsType = false;
    QList<kafka::GroupState> m_states; // empty: every state
    QList<kafka::GroupType> m_types;   // empty: every type
};

} // namespace groupscope::cli
