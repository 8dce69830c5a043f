#include "consumer/RepositionObserver.h"

namespace groupscope::consumer {

QString repositionStepName(RepositionStep step) {
    switch (step) {
    case RepositionStep::Lock:
        return QStringLiteral("lock");
    case RepositionStep::Pause:
        return QStringLiteral("pause");
    case RepositionStep::Flush:
        return QStringLiteral("flush");
    case RepositionStep::Resolve:
        return QStringLiteral("resolve");
    case RepositionStep::Seek:
        return QStringLiteral("seek");
    case RepositionStep::Bookkeeping:
        return QStringLiteral("bookkeeping");
    case RepositionStep::Commit:
        return QStringLiteral("commit");
    case RepositionStep::Resume:
        return QStringLiteral("resume");
    case RepositionStep::Unlock:
        return QStringLiteral("unlock");
    }
    return {};
}

} // namespace groupscope::consumer
