// Seeds many consumer groups fast, for the benchmarks at scale: Kafka's own Java admin
// client commits each group's offsets directly (one OffsetCommit per group, thousands in
// flight), so no consumer ever joins. The groups are classic groups without members
// (state Empty), as a group whose consumers commit with assign() looks.
//
//   SeedGroups BOOTSTRAP GROUPS PARTITIONS TOPICS PREFIX
//
// creates TOPICS topics PREFIX-topic-K (PARTITIONS partitions each) when missing, writes 100
// records to every partition, then groups PREFIX-group-000000 ... : group G commits on all
// partitions of topic G % TOPICS, partition P at offset (G + P) % 101 (so lag differs from
// group to group). Prints "seeded N groups (R offset rows) in S s" and exits 0; exits 1 with
// the first failure.
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class SeedGroups {
    private static final int RECORDS_PER_PARTITION = 100;
    private static final int IN_FLIGHT = 2000;

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: SeedGroups BOOTSTRAP GROUPS PARTITIONS TOPICS PREFIX");
            System.exit(2);
        }
        final String bootstrap = args[0];
        final int groups = Integer.parseInt(args[1]);
        final int partitions = Integer.parseInt(args[2]);
        final int topics = Integer.parseInt(args[3]);
        final String prefix = args[4];
        final long started = System.nanoTime();

        Properties adminConfig = new Properties();
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 60000);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 300000);
        try (Admin admin = Admin.create(adminConfig)) {
            List<String> topicNames = new ArrayList<>();
            for (int t = 0; t < topics; ++t)
                topicNames.add(String.format("%s-topic-%d", prefix, t));
            createMissingTopics(admin, topicNames, partitions);
            fillTopics(bootstrap, topicNames, partitions);
            commitGroups(admin, topicNames, groups, partitions, prefix);
        }
        System.out.printf("seeded %d groups (%d offset rows) in %.1f s%n", groups,
                          (long) groups * partitions, (System.nanoTime() - started) / 1e9);
    }

    private static void createMissingTopics(Admin admin, List<String> names, int partitions)
        throws Exception {
        Set<String> existing = admin.listTopics().names().get();
        List<NewTopic> missing = new ArrayList<>();
        for (String name : names)
            if (!existing.contains(name))
                missing.add(new NewTopic(name, partitions, (short) -1)); // the broker's default
        if (!missing.isEmpty())
            admin.createTopics(missing).all().get();
    }

    private static void fillTopics(String bootstrap, List<String> names, int partitions)
        throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String name : names)
                for (int p = 0; p < partitions; ++p)
                    for (int r = 0; r < RECORDS_PER_PARTITION; ++r)
                        producer.send(new ProducerRecord<>(name, p, null, new byte[] {(byte) r}));
            producer.flush();
        }
    }

    private static void commitGroups(Admin admin, List<String> topics, int groups, int partitions,
                                     String prefix) throws Exception {
        final Semaphore slots = new Semaphore(IN_FLIGHT);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int g = 0; g < groups && failure.get() == null; ++g) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            String topic = topics.get(g % topics.size());
            for (int p = 0; p < partitions; ++p)
                offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata((g + p) % 101));
            slots.acquire();
            admin.alterConsumerGroupOffsets(String.format("%s-group-%06d", prefix, g), offsets)
                .all()
                .whenComplete((ignored, error) -> {
                    if (error != null)
                        failure.compareAndSet(null, error);
                    slots.release();
                });
        }
        slots.acquire(IN_FLIGHT); // every commit answered
        if (failure.get() != null) {
            System.err.println("seeding failed: " + failure.get());
            System.exit(1);
        }
    }
}
