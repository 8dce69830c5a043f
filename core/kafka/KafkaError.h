#pragma once

#include <QString>

// The C type a librdkafka error object has, declared so that this header need not include
// librdkafka: only core/'s sources include it, and no header ui/ or app/ include reaches it.
typedef struct rd_kafka_error_s rd_kafka_error_t;

namespace groupscope::kafka {

// An error as a value: what librdkafka or the broker said, plus whether trying again may
// help. Groupscope never throws across its own API; calls return Result<T>.
struct KafkaError {
    // librdkafka's rd_kafka_resp_err_t (broker codes and its own negative ones), kept as an
    // int so this header does not include librdkafka; 0 is no error. Outside core/ code
    // asks the predicates below instead of comparing codes.
    int code = 0;
    QString message;
    bool retriable = false;
    bool fatal = false;

    bool isError() const { return code != 0; }
    explicit operator bool() const { return isError(); }
    friend bool operator==(const KafkaError&, const KafkaError&) = default;

    // The symbolic name, e.g. "UNKNOWN_TOPIC_OR_PART" or "_TIMED_OUT".
    QString codeName() const;
    // "message (CODE_NAME)", for people.
    QString toString() const;

    static KafkaError fromCode(int code, const QString& context = {});
    // Takes ownership of the rd_kafka_error_t and destroys it.
    static KafkaError fromError(rd_kafka_error_t* error);
    static KafkaError timeout(const QString& message);
    // Errors that are Groupscope's own (bad input, not found), not librdkafka's.
    static KafkaError invalidArgument(const QString& message);

    // The broker refused the SASL credentials (wrong user, password or mechanism).
    static KafkaError authenticationFailed(const QString& detail);
    // The TLS handshake failed: most often the broker's certificate is not trusted by the
    // configured CA or was issued for another host name.
    static KafkaError tlsHandshakeFailed(const QString& detail);
    // A failure librdkafka reports through its error or log callback that retrying cannot
    // fix (the connection would fail the same way until the profile changes), as one of
    // the two errors above; no error otherwise. librdkafka 2.0 reports a rejected
    // certificate as _SSL or, when the failure surfaces on a read, as _TRANSPORT with
    // OpenSSL's reason, so the reason text is consulted too.
    static KafkaError connectionSetupFailure(int code, const QString& reason);

    // True when no broker answered in time or none could be reached (timeout, transport,
    // all brokers down, unresolvable host): the next request to the same cluster would
    // most likely wait out its whole deadline the same way.
    bool isConnectionFailure() const;
    // True for the broker's "not authorised" answers (a Kafka ACL denies the operation).
    bool isAuthorizationError() const;
    // The message with what an authorisation error means added, once; others unchanged.
    KafkaError withExplanation() const;
};

} // namespace groupscope::kafka
