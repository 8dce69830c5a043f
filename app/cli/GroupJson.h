#pragma once

#include "snapshot/GroupSnapshot.h"

#include <QByteArray>
#include <QIODevice>

namespace groupscope::cli {

// The machine-readable form of `describe --json`: an array with one object per group, with
// its partitions (Kafka's describe columns) and members, as indented JSON text with sorted
// keys. Missing values are null, where the text table prints "-". With `lagDetail` each
// partition has its "lagDetail" object and the group its "totalEffectiveLag".
QByteArray groupsToJsonText(const QList<monitor::GroupSnapshot>& groups, bool lagDetail = false);
// The same text written to `out` as it is made, a megabyte at a time, so the whole
// document is never in memory at once.
void writeGroupsJson(QIODevice& out, const QList<monitor::GroupSnapshot>& groups,
                     bool lagDetail = false);

} // namespace groupscope::cli
