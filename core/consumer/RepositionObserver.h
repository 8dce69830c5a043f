#pragma once

#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <QList>

namespace groupscope::consumer {

// The steps of the reposition engine, in the order it performs them.
enum class RepositionStep {
    Lock,
    Pause,
    Flush,
    Resolve,
    Seek,
    Bookkeeping,
    Commit,
    Resume,
    Unlock
};

QString repositionStepName(RepositionStep step);

// A seam for tests and diagnostics: the engine calls the observer on the session's fetch
// thread as soon as each step is done. An observer may block there (a test holds the
// engine between two steps this way) and may inject a fault for a partition at a step,
// which the engine then handles exactly as if librdkafka had reported it.
class RepositionObserver {
public:
    virtual ~RepositionObserver() = default;
    virtual void stepDone(RepositionStep step, const QList<kafka::TopicPartition>& partitions) = 0;
    virtual kafka::KafkaError injectedFault(RepositionStep, const kafka::TopicPartition&) {
        return {};
    }
};

} // namespace groupscope::consumer
