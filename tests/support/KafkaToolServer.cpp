#include "KafkaToolServer.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QThread>

namespace groupscope::test {

namespace {

const QString toolServerScript = QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-tool-server");

// The JVM of tests/kafka/kafka-tool-server and its protocol: a request line (the tool's name,
// then its Base64 arguments, separated by tabs), an answer "result EXIT OUT_BYTES ERR_BYTES"
// followed by the bytes. A server that fails to answer in time is killed; the next call
// starts another.
class ToolServer {
public:
    ProcessResult run(const QString& name, const QStringList& arguments,
                      std::chrono::milliseconds timeout) {
        const QDeadlineTimer deadline(timeout);
        if (m_process.state() != QProcess::Running && !start(deadline))
            return failed(QStringLiteral("could not start %1: %2")
                              .arg(toolServerScript, m_process.errorString()));
        QByteArray request = name.toUtf8();
        for (const QString& argument : arguments)
            request += '\t' + argument.toUtf8().toBase64();
        m_process.write(request + '\n');

        const auto header = readLine(deadline);
        const QList<QByteArray> fields = header.value_or(QByteArray()).trimmed().split(' ');
        if (fields.size() != 4 || fields[0] != "result")
            return abandon(name, timeout, deadline);
        ProcessResult result;
        result.exitCode = fields[1].toInt();
        const auto out = readBytes(fields[2].toLongLong(), deadline);
        const auto err = out ? readBytes(fields[3].toLongLong(), deadline) : std::nullopt;
        if (!err)
            return abandon(name, timeout, deadline);
        result.out = *out;
        result.err = *err;
        return result;
    }

private:
    bool start(const QDeadlineTimer& deadline) {
        // Its stderr is the test's: what Kafka's clients log between calls, or why the
        // server could not start, shows in the test's output.
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(toolServerScript, {});
        return m_process.waitForStarted(int(deadline.remainingTime()));
    }

    std::optional<QByteArray> readLine(const QDeadlineTimer& deadline) {
        while (!m_process.canReadLine())
            if (!m_process.waitForReadyRead(int(deadline.remainingTime())))
                return std::nullopt;
        return m_process.readLine();
    }

    std::optional<QByteArray> readBytes(qint64 count, const QDeadlineTimer& deadline) {
        while (m_process.bytesAvailable() < count)
            if (!m_process.waitForReadyRead(int(deadline.remainingTime())))
                return std::nullopt;
        return m_process.read(count);
    }

    // No whole answer: either the call outlasted its time or the JVM ended. The server is
    // stopped either way, so that a late answer is never read as the next call's.
    ProcessResult abandon(const QString& name, std::chrono::milliseconds timeout,
                          const QDeadlineTimer& deadline) {
        const bool ended = m_process.state() != QProcess::Running;
        m_process.kill();
        m_process.waitForFinished(5000);
        return failed(
            ended || !deadline.hasExpired()
                ? QStringLiteral("%1 ended before answering %2").arg(toolServerScript, name)
                : QStringLiteral("%1 did not finish within %2 ms").arg(name).arg(timeout.count()));
    }

    static ProcessResult failed(const QString& why) {
        ProcessResult result;
        result.err = why.toUtf8();
        return result;
    }

    QProcess m_process;
};

} // namespace

ProcessResult runKafkaTool(const QString& name, const QStringList& arguments,
                           std::chrono::milliseconds timeout) {
    // Never destroyed: the JVM ends by itself when its stdin closes, as this process ends.
    static ToolServer* const server = new ToolServer;
    static QThread* const serverThread = QThread::currentThread();
    if (QThread::currentThread() != serverThread)
        return run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/") + name, arguments, {}, timeout);
    return server->run(name, arguments, timeout);
}

} // namespace groupscope::test
