#include "MetricsBodyText.h"

namespace groupscope::test {

QByteArray metricsBodyText(const exporter::MetricsHttpServer::MetricsBody& body, int* pieces) {
    QByteArray text = body.parts.join();
    int made = 0;
    if (body.more) {
        std::function<QByteArray()> more = body.more;
        for (QByteArray piece = more(); !piece.isEmpty(); piece = more()) {
            text += piece;
            ++made;
        }
    }
    if (pieces)
        *pieces = made;
    return text;
}

} // namespace groupscope::test
