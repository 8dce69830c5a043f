#!/usr/bin/python3
"""Fills a broker with a few topics and consumer groups that look like a real cluster, for
screenshots and for trying the GUI by hand. Needs Debian's python3 with python3-kafka.

  demo-groups.py BOOTSTRAP setup     create topics, produce, commit offsets (idempotent)
  demo-groups.py BOOTSTRAP member    join 'inventory-sync' as a live member until killed
"""
import sys

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import TopicAlreadyExistsError
from kafka.structs import OffsetAndMetadata

bootstrap, action = sys.argv[1], sys.argv[2]

TOPICS = {"orders": 6, "payments": 3, "clickstream": 8, "emails": 1, "inventory": 4}
MESSAGES_PER_PARTITION = {"orders": 1500, "payments": 800, "clickstream": 4000, "emails": 300,
                          "inventory": 500}
# group -> {topic: messages behind per partition}
GROUPS = {
    "billing-service": {"orders": 12, "payments": 3},
    "fraud-detector": {"payments": 240},
    "clickstream-aggregator": {"clickstream": 1875},
    "email-notifier": {"emails": 0},
    "search-indexer": {"orders": 0, "inventory": 57},
    "warehouse-export": {"orders": 1490},
    "inventory-sync": {"inventory": 20},  # also gets a live member: see member()
}


def setup():
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    existing = set(admin.list_topics())
    missing = [NewTopic(name, partitions, 1) for name, partitions in TOPICS.items()
               if name not in existing]
    if missing:
        try:
            admin.create_topics(missing)
        except TopicAlreadyExistsError:
            pass
    admin.close()

    # Retries: a new topic's leaders are not known at once, and a failed send is only
    # reported through its future.
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=20, acks="all",
                             retries=100, retry_backoff_ms=200)
    probe = KafkaConsumer(bootstrap_servers=bootstrap)
    sent = []
    for topic, partitions in TOPICS.items():
        for partition in range(partitions):
            tp = TopicPartition(topic, partition)
            end = probe.end_offsets([tp])[tp]
            for i in range(end, MESSAGES_PER_PARTITION[topic]):
                sent.append(producer.send(topic, value=b"demo-%d" % i, partition=partition))
    producer.flush()
    for future in sent:
        future.get(timeout=60)
    probe.close()
    producer.close()

    for group, behind in GROUPS.items():
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group,
                                 enable_auto_commit=False)
        offsets = {}
        for topic, lag in behind.items():
            for partition in range(TOPICS[topic]):
                offsets[TopicPartition(topic, partition)] = OffsetAndMetadata(
                    MESSAGES_PER_PARTITION[topic] - lag, "")
        consumer.commit(offsets)
        consumer.close()


def member():
    # Never commits: the group stays Stable with the lag setup() gave it.
    consumer = KafkaConsumer("inventory", bootstrap_servers=bootstrap, group_id="inventory-sync",
                             enable_auto_commit=False, max_poll_records=1)
    while True:
        consumer.poll(timeout_ms=500)


{"setup": setup, "member": member}[action]()
