// The test bed's Kafka Streams application: one independent member of a streams group
// (KIP-1071, group.protocol=streams), run by tests/kafka/kafka-streams-app.
//
// Topology (a word count), two subtopologies:
//   0: INPUT -> split values into words -> re-key by word -> repartition topic
//      (ID-words-repartition)
//   1: repartition topic -> count per word in the state store "counts" (changelog topic
//      ID-counts-changelog) -> OUTPUT (key: the word, value: its count as a decimal string)
// Subtopology 1 is stateful, so with standby replicas (the group's
// streams.num.standby.replicas) and two instances its tasks have standby (or warm-up)
// copies.
//
// Every change of the application's state is printed on stdout as one line,
// "state=NEW previous=OLD", flushed: a test waits for "state=RUNNING". SIGTERM (or SIGINT)
// closes it cleanly and it leaves the group; "closed" is the last line.
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

public final class GroupscopeStreamsApp {
    private static final String USAGE =
        "usage: kafka-streams-app --bootstrap-server B --application-id ID --input TOPIC"
        + " --output TOPIC [--client-id C] [--standby-replicas N] [--state-dir D]"
        + " [--commit-interval-ms MS] [--threads N] [--print-topology]";

    public static void main(String[] args) throws Exception {
        String bootstrap = null, applicationId = null, input = null, output = null;
        String clientId = null, standby = null, stateDir = null;
        String commitInterval = "1000", threads = "1";
        boolean printTopology = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--print-topology")) { printTopology = true; continue; }
            if (arg.equals("--help") || arg.equals("-h")) { System.out.println(USAGE); return; }
            if (i + 1 >= args.length) fail("option " + arg + " needs a value");
            String value = args[++i];
            switch (arg) {
                case "--bootstrap-server": bootstrap = value; break;
                case "--application-id": applicationId = value; break;
                case "--input": input = value; break;
                case "--output": output = value; break;
                case "--client-id": clientId = value; break;
                case "--standby-replicas": standby = requireNumber(arg, value); break;
                case "--state-dir": stateDir = value; break;
                case "--commit-interval-ms": commitInterval = requireNumber(arg, value); break;
                case "--threads": threads = requireNumber(arg, value); break;
                default: fail("unknown option " + arg);
            }
        }
        if (bootstrap == null || applicationId == null || input == null || output == null) {
            fail("--bootstrap-server, --application-id, --input and --output are required");
        }

        Topology topology = topology(input, output);
        if (printTopology) {
            System.out.println(topology.describe());
            System.out.flush();
        }

        // Streams groups take the number of standby replicas from the group's configuration
        // (streams.num.standby.replicas, default the broker's
        // group.streams.num.standby.replicas = 0), not from the client's
        // num.standby.replicas, which the streams protocol ignores: set it on the group
        // before joining. (The group need not exist yet.)
        if (standby != null) setStandbyReplicas(bootstrap, applicationId, standby);

        // Each instance needs a state directory of its own: Streams keeps its process id
        // there, and two instances sharing one would be taken for one process (no standby
        // of a task could go to the other). By default a fresh one, removed on close.
        // Under groupscope.state.root (the wrapper's cache directory) when set: Streams warns
        // about a state directory in the OS's temporary directory.
        final Path ownStateDir = stateDir == null ? newStateDir(applicationId) : null;

        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG,
                  ownStateDir != null ? ownStateDir.toString() : stateDir);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        // Offsets committed and counts written within about a second, so tests need not
        // wait for the 30 s default (at-least-once) or for the record cache.
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        if (clientId != null) props.put(StreamsConfig.CLIENT_ID_CONFIG, clientId);
        // Streams warns at start-up unless this is set (it becomes the default in Kafka 5).
        props.put("processing.exception.handler.global.enabled", "true");

        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        final boolean[] failed = {false};
        streams.setStateListener((now, before) -> {
            System.out.println("state=" + now + " previous=" + before);
            System.out.flush();
            if (now == KafkaStreams.State.ERROR) failed[0] = true;
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(exception -> {
            System.err.println("kafka-streams-app: stream thread failed: " + exception);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
                .StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopped.countDown();
            try {
                // The hook must not return before main has closed Streams, or the JVM
                // halts in the middle of it.
                closed.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "groupscope-streams-shutdown"));

        streams.start();
        stopped.await();
        boolean clean = streams.close(CloseOptions
            .groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(Duration.ofSeconds(30)));
        if (ownStateDir != null) removeTree(ownStateDir);
        System.out.println(clean ? "closed" : "closed (timed out)");
        System.out.flush();
        closed.countDown();
        // Stopped by a signal: the JVM exits with the signal's status. Failed by itself: 1.
        if (failed[0]) System.exit(1);
    }

    static Topology topology(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(value -> value == null ? List.<String>of()
                : Arrays.asList(value.toLowerCase(Locale.ROOT).split("\\W+")))
            .filter((key, word) -> !word.isEmpty())
            .groupBy((key, word) -> word, Grouped.with("words", Serdes.String(), Serdes.String()))
            .count(Materialized.as("counts"))
            .toStream()
            .mapValues(count -> Long.toString(count))
            .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    static void setStandbyReplicas(String bootstrap, String group, String standby) throws Exception {
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(adminProps)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
            AlterConfigOp op = new AlterConfigOp(
                new ConfigEntry("streams.num.standby.replicas", standby), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all()
                .get(30, TimeUnit.SECONDS);
        }
    }

    static Path newStateDir(String applicationId) throws IOException {
        String prefix = "streams-state-" + applicationId.replaceAll("[^A-Za-z0-9._-]", "_") + "-";
        String root = System.getProperty("groupscope.state.root");
        if (root == null) return Files.createTempDirectory(prefix);
        Files.createDirectories(Path.of(root));
        return Files.createTempDirectory(Path.of(root), prefix);
    }

    static String requireNumber(String option, String value) {
        if (!value.matches("[0-9]+")) fail(option + " takes a number, not '" + value + "'");
        return value;
    }

    static void removeTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("kafka-streams-app: could not remove " + root + ": " + e);
        }
    }

    static void fail(String message) {
        System.err.println("kafka-streams-app: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
