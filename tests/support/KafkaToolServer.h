#pragma once
// Kafka's own command-line tools of the test bed (kafka-consumer-groups, kafka-share-groups,
// kafka-topics, ...), asked through one JVM that serves them for the whole test program
// (tests/kafka/kafka-tool-server). A test that compares Groupscope with Kafka's tool dozens
// of times would otherwise start a JVM and load Kafka's classes for every comparison. Each
// call still gets what a fresh run of the tool's script would give: its stdout, its stderr
// and its exit code.

#include "TestBroker.h"

#include <QString>
#include <QStringList>

#include <chrono>

namespace groupscope::test {

// Runs the test bed's tool `name` (a script in tests/kafka that runs one of Kafka's tools)
// with `arguments`. From the thread that first called it, through the shared JVM; from any
// other thread, as a process of its own, since the JVM's pipes belong to the first thread.
ProcessResult runKafkaTool(const QString& name, const QStringList& arguments,
                           std::chrono::milliseconds timeout = std::chrono::seconds(120));

} // namespace groupscope::test
