#pragma once

#include "export/MetricsHttpServer.h"

#include <QByteArray>

namespace groupscope::test {

// The whole body a /metrics answer sends, as a client reads it: its parts, then every piece
// its `more` makes. `pieces`, when given, counts the pieces `more` made.
QByteArray metricsBodyText(const exporter::MetricsHttpServer::MetricsBody& body,
                           int* pieces = nullptr);

} // namespace groupscope::test
