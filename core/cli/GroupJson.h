#pragma once

#include "monitor/GroupSnapshot.h"

#include <QJsonArray>
#include <QJsonObject>

namespace groupscope::cli {

// The machine-readable form of `describe --json`: one object per group with its
// partitions (Kafka's describe columns) and members. Missing values are null, where the
// text table prints "-".
QJsonObject groupToJson(const monitor::GroupSnapshot& group);
QJsonArray groupsToJson(const QList<monitor::GroupSnapshot>& groups);

} // namespace groupscope::cli
