// libFuzzer target for the SCRAM client's reading of the broker's two messages (RFC 5802
// server-first and server-final): a broker, or whoever poses as one, chooses these bytes.
// Input: one byte choosing the hash, then server-first, a newline, server-final.
#include "FuzzCheck.h"
#include "kafka/protocol/ScramClient.h"

#include <QList>

#include <cstddef>
#include <cstdint>

using groupscope::fuzz::check;
using groupscope::kafka::protocol::ScramClient;

namespace {

const QString password = QStringLiteral("pencil-0b5e");

// An error may quote the broker, never the password.
void checkError(const groupscope::kafka::KafkaError& error) {
    check(!error.message.isEmpty() && !error.message.contains(password) &&
          error.message.size() < 400);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    const QByteArray input(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray serverFirst = newline < 0 ? input : input.left(newline);
    const QByteArray serverFinal = newline < 0 ? QByteArray() : input.mid(newline + 1);
    // Deriving the key costs what the broker asks for, up to the client's own limit; the
    // harness keeps to Kafka's maximum (16384) so that each input stays quick.
    if (const qsizetype at = serverFirst.indexOf(",i="); at >= 0) {
        bool numeric = false;
        const int iterations = serverFirst.mid(at + 3).split(',').first().toInt(&numeric);
        if (numeric && iterations > 16384)
            return 0;
    }
    ScramClient client((data[0] & 1) ? ScramClient::Hash::Sha512 : ScramClient::Hash::Sha256,
                       QStringLiteral("user"), password, QByteArrayLiteral("rOprNGfwEbeRWgbNEkqO"));
    const auto final = client.clientFinalMessage(serverFirst);
    if (!final) {
        checkError(final.error());
        return 0;
    }
    // The proof answers the broker's nonce, which must extend the client's.
    check(final.value().startsWith("c=biws,r=rOprNGfwEbeRWgbNEkqO") &&
          final.value().contains(",p="));
    const auto verified = client.verifyServerFinalMessage(serverFinal);
    if (!verified)
        checkError(verified.error());
    return 0;
}
