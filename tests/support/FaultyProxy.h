#pragma once
// A fault-injecting TCP proxy for the Kafka protocol, for tests: it listens on 127.0.0.1,
// forwards every connection to one real broker, and can break the broker's answers to one
// API: cut a response off after some bytes and close the connection, hold it back, or set
// a group's error code in it. It runs in a thread of its own, so that the client under
// test may block the test's thread.
//
// Kafka's metadata tells clients where the brokers are, which would lead them around the
// proxy: the proxy rewrites the broker addresses in Metadata and FindCoordinator responses
// to its own (decoded and encoded again with MessageCodec), so that a client that starts
// at the proxy reaches the broker only through it. The upstream is one broker, so every
// broker id in the metadata becomes the proxy's address.

#include "kafka/protocol/MessageSchema.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace groupscope::test {

class FaultyProxy {
public:
    enum class Mode {
        PassThrough,
        // Sends the first `closeAfterBytes` bytes of the response (its size prefix
        // included), then closes the client's connection.
        CloseMidResponse,
        // Sends the response `delay` after the broker's answer arrived.
        DelayResponse,
        // Sets `errorCode` (and, where the message has one, `errorMessage`) in the answer
        // for the group `groupId`: an element of Groups (the describes, OffsetFetch v8+)
        // or Coordinators (FindCoordinator v4+).
        GroupError,
        // Sets `errorCode` in every partition of a ListOffsets answer; with
        // `onlyReadCommitted`, only in answers to requests with isolation READ_COMMITTED
        // (a broker that refuses the last stable offset but gives the log end).
        PartitionError,
        // Holds the request back from the broker (and every later request of its
        // connection, to keep their order) until `delay` passed or releaseHeldRequests();
        // dropped if the client goes away first: the broker never sees it.
        HoldRequest,
    };
    struct Fault {
        Mode mode = Mode::PassThrough;
        // Only responses to this API; every response when empty.
        std::optional<kafka::protocol::ApiKey> api;
        int closeAfterBytes = 0;
        std::chrono::milliseconds delay{0};
        QString groupId = {};
        int errorCode = 0;
        QString errorMessage = {};
        bool onlyReadCommitted = false;
        // How many responses the fault hits before the proxy passes through again; -1:
        // every one.
        int times = -1;
    };

    // `upstream`: the broker, "host:port".
    explicit FaultyProxy(const QString& upstream);
    ~FaultyProxy(); // closes every connection and stops the thread
    FaultyProxy(const FaultyProxy&) = delete;
    FaultyProxy& operator=(const FaultyProxy&) = delete;

    // Starts listening on 127.0.0.1 (a free port); false when it could not.
    bool start();
    // "127.0.0.1:PORT", for a client's bootstrap servers.
    QString address() const;

    // Replaces the fault; applies to responses that arrive from now on.
    void setFault(const Fault& fault);
    void passThrough() { setFault(Fault{}); }
    // Sends the requests HoldRequest holds back now.
    void releaseHeldRequests();
    // How many responses (requests, for HoldRequest) the current fault has hit.
    int faultsApplied() const;
    // How many client connections the proxy accepted so far.
    int connectionsAccepted() const;

    // Called on the proxy's thread each time the fault hits a response (before the
    // response is held back, cut off or sent), with the API it answers.
    using FaultObserver = std::function<void(kafka::protocol::ApiKey api)>;
    void setFaultObserver(FaultObserver observer);
    // Called on the proxy's thread with every whole frame as the client or the broker sent
    // it (size prefix included, before any rewriting), and the API key and version of the
    // request it is or answers; e.g. to capture real answers as seeds for a fuzzer.
    using FrameObserver = std::function<void(bool request, kafka::protocol::ApiKey api,
                                             int16_t version, const QByteArray& frame)>;
    void setFrameObserver(FrameObserver observer);

    class Worker;

private:
    std::unique_ptr<Worker> m_worker;
};

} // namespace groupscope::test
