#include "cli/ExporterCommand.h"
#include "cli/CommandErrors.h"

#include "common/StopSignalWatcher.h"
#include "export/MetricsExporter.h"
#include "monitor/ClusterMonitor.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QSocketNotifier>

namespace groupscope::cli {

namespace {

std::optional<quint16> parsePort(const QString& text) {
    bool ok = false;
    const uint port = text.toUInt(&ok);
    if (!ok || port > 65535)
        return std::nullopt;
    return quint16(port);
}

std::optional<exporter::Granularity> parseGranularity(const QString& text) {
    if (text == u"partition")
        return exporter::Granularity::Partition;
    if (text == u"topic")
        return exporter::Granularity::Topic;
    if (text == u"group")
        return exporter::Granularity::Group;
    return std::nullopt;
}

} // namespace

std::optional<ListenAddress> parseListenAddress(const QString& text, QString* error) {
    const auto fail = [&](const QString& why) -> std::optional<ListenAddress> {
        if (error)
            *error = QStringLiteral("--listen takes [ADDRESS:]PORT (e.g. 9308 or "
                                    "127.0.0.1:9308), got \"%1\": %2")
                         .arg(text, why);
        return std::nullopt;
    };
    QString host;
    QString portText = text;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(QStringLiteral("]:"));
        if (close < 0)
            return fail(QStringLiteral("an IPv6 address is written [ADDRESS]:PORT"));
        host = text.mid(1, close - 1);
        portText = text.mid(close + 2);
    } else if (const qsizetype colon = text.lastIndexOf(u':'); colon >= 0) {
        host = text.left(colon);
        portText = text.mid(colon + 1);
        if (host.contains(u':'))
            return fail(QStringLiteral("an IPv6 address is written [ADDRESS]:PORT"));
    }
    const auto port = parsePort(portText);
    if (!port)
        return fail(QStringLiteral("the port is not a number from 0 to 65535"));
    ListenAddress listen;
    listen.port = *port;
    if (host.isEmpty() || host.compare(u"localhost", Qt::CaseInsensitive) == 0) {
        listen.address = QHostAddress(QHostAddress::LocalHost);
    } else if (!listen.address.setAddress(host)) {
        return fail(
            QStringLiteral("\"%1\" is not an IP address (names are not resolved)").arg(host));
    }
    return listen;
}

std::optional<QRegularExpression> parseFilter(const QString& option, const QString& pattern,
                                              QString* error) {
    QRegularExpression expression(pattern);
    if (!expression.isValid()) {
        if (error)
            *error = QStringLiteral("%1: invalid regular expression \"%2\": %3 at offset %4")
                         .arg(option, pattern, expression.errorString())
                         .arg(expression.patternErrorOffset());
        return std::nullopt;
    }
    expression.optimize();
    return expression;
}

int runExporterCommand(const CommandContext& context, ArgumentList& arguments) {
    const auto listenText = arguments.takeValue(QStringLiteral("--listen"));
    const auto filterText = arguments.takeValue(QStringLiteral("--group-filter"));
    const auto clusterName = arguments.takeValue(QStringLiteral("--cluster-name"));
    const auto intervalText = arguments.takeValue(QStringLiteral("--interval"));
    const auto webConfigPath = arguments.takeValue(QStringLiteral("--web-config"));
    const auto topicFilterText = arguments.takeValue(QStringLiteral("--topic-filter"));
    const auto granularityText = arguments.takeValue(QStringLiteral("--granularity"));
    const bool memberLabels = arguments.takeFlag(QStringLiteral("--member-labels"));
    if (!arguments.error().isEmpty())
        return usageError(context, arguments.error());
    if (!arguments.remaining().isEmpty())
        return usageError(context,
                          QStringLiteral("unexpected argument \"%1\" (see groupscope-cli --help)")
                              .arg(arguments.remaining().first()));
    if (!listenText)
        return usageError(context, QStringLiteral("give --listen [ADDRESS:]PORT, e.g. --listen "
                                                  "127.0.0.1:9308"));
    QString problem;
    const auto listen = parseListenAddress(*listenText, &problem);
    if (!listen)
        return usageError(context, problem);
    exporter::ExportOptions options;
    if (filterText) {
        auto filter = parseFilter(QStringLiteral("--group-filter"), *filterText, &problem);
        if (!filter)
            return usageError(context, problem);
        options.groupFilter = std::move(*filter);
    }
    if (topicFilterText) {
        auto filter = parseFilter(QStringLiteral("--topic-filter"), *topicFilterText, &problem);
        if (!filter)
            return usageError(context, problem);
        options.topicFilter = std::move(*filter);
    }
    if (granularityText) {
        const auto granularity = parseGranularity(*granularityText);
        if (!granularity)
            return usageError(context, QStringLiteral("--granularity takes partition, topic or "
                                                      "group, got \"%1\"")
                                           .arg(*granularityText));
        options.granularity = *granularity;
    }
    if (memberLabels && options.granularity != exporter::Granularity::Partition)
        return usageError(context, QStringLiteral("--member-labels labels per-partition series: "
                                                  "it needs --granularity partition"));
    options.memberLabels = memberLabels;
    auto interval = monitor::ClusterMonitor::defaultInterval;
    if (intervalText) {
        bool ok = false;
        const qlonglong value = intervalText->toLongLong(&ok);
        if (!ok || value < 100 || value > 3'600'000)
            return usageError(context,
                              QStringLiteral("--interval takes milliseconds from 100 to 3600000"));
        interval = std::chrono::milliseconds(value);
    }
    options.clusterName = clusterName                       ? *clusterName
                          : !context.profile.name.isEmpty() ? context.profile.name
                                                            : context.profile.bootstrapServers;

    std::optional<exporter::WebConfig> webConfig;
    if (webConfigPath) {
        auto loaded = exporter::WebConfig::load(*webConfigPath);
        if (!loaded)
            return usageError(context,
                              QStringLiteral("--web-config: %1").arg(loaded.error().message));
        webConfig = std::move(loaded.value());
    }

    std::optional<QCoreApplication> ownApplication;
    if (!QCoreApplication::instance()) {
        static int argc = 1;
        static char name[] = "groupscope-cli";
        static char* argv[] = {name, nullptr};
        ownApplication.emplace(argc, argv);
    }
    exporter::MetricsExporter metrics(options);
    if (webConfig)
        if (kafka::Status applied = metrics.server().setWebConfig(*webConfig); !applied)
            return usageError(context,
                              QStringLiteral("--web-config: %1").arg(applied.error().message));
    if (!metrics.listen(listen->address, listen->port)) {
        context.err << "Error: --listen " << *listenText << ": " << metrics.server().errorString()
                    << u'\n';
        return ExitFailure;
    }
    const QHostAddress bound = metrics.server().serverAddress();
    if (!bound.isLoopback() && !webConfig)
        context.err << "Warning: listening on " << bound.toString()
                    << ", not loopback, without --web-config: anyone who reaches this port "
                       "reads the cluster's group and topic names, in clear and without a "
                       "password\n";
    const QString shown = bound.protocol() == QAbstractSocket::IPv6Protocol
                              ? QStringLiteral("[%1]").arg(bound.toString())
                              : bound.toString();
    const bool tls = webConfig && webConfig->usesTls();
    context.out << "Serving " << (tls ? "https" : "http") << "://" << shown << u':'
                << metrics.server().serverPort() << "/metrics"
                << (webConfig && !webConfig->basicAuthUsers.isEmpty() ? " (basic auth required)"
                                                                      : "")
                << u'\n';
    context.out.flush();

    monitor::ClusterMonitor monitor(context.profile);
    monitor.setRequestTimeout(context.timeout);
    monitor.setInterval(interval);
    metrics.attach(monitor);
    // The journal learns when the cluster goes away and when it is back, once each.
    bool reportedDown = false;
    QObject::connect(
        &monitor, &monitor::ClusterMonitor::refreshFailed, &metrics, [&](const QString& message) {
            if (reportedDown)
                return;
            reportedDown = true;
            context.err << "Warning: refresh failed, serving the last good values: " << message
                        << u'\n';
            context.err.flush();
        });
    QObject::connect(&monitor, &monitor::ClusterMonitor::viewReady, &metrics, [&] {
        if (!reportedDown)
            return;
        reportedDown = false;
        context.err << "Note: refresh succeeded again\n";
        context.err.flush();
    });

    app::StopSignalWatcher stopSignal;
    QEventLoop loop;
    std::optional<QSocketNotifier> stopNotifier;
    if (stopSignal.isInstalled()) {
        stopNotifier.emplace(stopSignal.wakeFd(), QSocketNotifier::Read);
        QObject::connect(&*stopNotifier, &QSocketNotifier::activated, &loop, &QEventLoop::quit);
    }
    monitor.start();
    loop.exec();
    monitor.stop();
    monitor.waitForStopped(QDeadlineTimer(context.timeout.count() + 5000));
    return ExitSuccess;
}

} // namespace groupscope::cli
