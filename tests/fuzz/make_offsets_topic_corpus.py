#!/usr/bin/env python3
"""Writes the seed corpus for FuzzOffsetsTopicDecoder into corpus/offsets-topic/.

Each file is one fuzz input: a first byte whose low seven bits are the key length and whose
high bit marks a tombstone, then the key, then the value. The records follow Kafka's
published schemas (OffsetCommitKey/Value, GroupMetadataKey/Value, ConsumerProtocol*, and the
consumer-protocol group records ConsumerGroup*Key/Value, key types 3-8).
Run it again after changing it; the output is deterministic.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "offsets-topic")


def i16(v): return struct.pack(">h", v)
def i32(v): return struct.pack(">i", v)
def i64(v): return struct.pack(">q", v)


def uvarint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def string(s, compact=False):
    if s is None:
        return uvarint(0) if compact else i16(-1)
    b = s.encode()
    return (uvarint(len(b) + 1) if compact else i16(len(b))) + b


def blob(b, compact=False):
    if b is None:
        return uvarint(0) if compact else i32(-1)
    return (uvarint(len(b) + 1) if compact else i32(len(b))) + b


def array(n, compact=False):
    return uvarint(n + 1) if compact else i32(n)


def offset_key(version=1):
    return i16(version) + string("payments") + string("orders") + i32(3)


def group_key():
    return i16(2) + string("payments")


def offset_value(version):
    flexible = version >= 4
    out = i16(version) + i64(4242)
    if version >= 3:
        out += i32(7)
    out += string("meta", flexible) + i64(1700000000123)
    if version == 1:
        out += i64(1700086400123)
    if flexible:
        out += uvarint(0)
    return out


def topic_partitions(pairs):
    out = i32(len(pairs))
    for topic, partitions in pairs:
        out += string(topic) + i32(len(partitions)) + b"".join(i32(p) for p in partitions)
    return out


def assignment(version, pairs, user_data=b"ud"):
    return i16(version) + topic_partitions(pairs) + blob(user_data)


def subscription(version, topics, owned=(), generation=5):
    out = i16(version) + i32(len(topics)) + b"".join(string(t) for t in topics) + blob(None)
    if version >= 1:
        out += topic_partitions(list(owned))
    if version >= 2:
        out += i32(generation)
    return out


def group_value(version, members, protocol_type="consumer"):
    flexible = version >= 4
    out = i16(version) + string(protocol_type, flexible) + i32(17)
    if members:
        out += string("range", flexible) + string(members[0][0], flexible)
    else:
        out += string(None, flexible) + string(None, flexible)
    if version >= 2:
        out += i64(1700000000999)
    out += array(len(members), flexible)
    for member_id, instance_id, sub, assign in members:
        out += string(member_id, flexible)
        if version >= 3:
            out += string(instance_id, flexible)
        out += string("client-" + member_id, flexible) + string("/10.0.0.1", flexible)
        if version >= 1:
            out += i32(300000)
        out += i32(45000) + blob(sub, flexible) + blob(assign, flexible)
        if flexible:
            out += uvarint(0)
    if flexible:
        out += uvarint(0)
    return out


# Consumer-protocol (KIP-848) group records: classic-string keys, flexible version-0 values.
TOPIC_ID = bytes(range(16))


def cg_key(key_type, member=None):
    return i16(key_type) + string("new-g") + (string(member) if member is not None else b"")


def tagged(fields):
    """Tagged fields: {tag: bytes}."""
    out = uvarint(len(fields))
    for tag, data in sorted(fields.items()):
        out += uvarint(tag) + uvarint(len(data)) + data
    return out


def cg_topic_partitions(partitions, epochs=None):
    out = TOPIC_ID + array(len(partitions), True) + b"".join(i32(p) for p in partitions)
    if epochs is None:
        return out + uvarint(0)
    return out + tagged({0: array(len(epochs), True) + b"".join(i32(e) for e in epochs)})


def cg_member_metadata(classic=False):
    out = (i16(0) + string(None, True) + string("rack-a", True) + string("console", True)
           + string("/127.0.0.1", True) + array(1, True) + string("orders", True)
           + string(None, True) + i32(300000) + string("uniform", True))
    if not classic:
        return out + uvarint(0)
    metadata = i32(45000) + array(1, True) + string("range", True) + blob(b"\x00\x01", True) + uvarint(0) + uvarint(0)
    return out + tagged({0: metadata})


def cg_current_assignment(epochs=False):
    return (i16(0) + i32(7) + i32(6) + bytes([1])
            + array(1, True) + cg_topic_partitions([0, 2], [5, 7] if epochs else None)
            + array(1, True) + cg_topic_partitions([1]) + uvarint(0))


def fuzz_input(key, value, tombstone=False):
    assert len(key) < 128
    return bytes([len(key) | (0x80 if tombstone else 0)]) + key + (b"" if tombstone else value)


MEMBERS = [
    ("m-1", "static-1", subscription(0, ["orders"]),
     assignment(0, [("orders", [0, 1]), ("audit", [4])])),
    ("m-2", None, subscription(2, ["orders"], [("orders", [2])]),
     assignment(1, [("orders", [2])], None)),
]

SEEDS = {
    "offset-commit-v0": fuzz_input(offset_key(0), offset_value(0)),
    "offset-commit-v1": fuzz_input(offset_key(), offset_value(1)),
    "offset-commit-v2": fuzz_input(offset_key(), offset_value(2)),
    "offset-commit-v3": fuzz_input(offset_key(), offset_value(3)),
    "offset-commit-v4-flexible": fuzz_input(offset_key(), offset_value(4)),
    "offset-commit-tombstone": fuzz_input(offset_key(), b"", tombstone=True),
    "group-metadata-v0": fuzz_input(group_key(), group_value(0, MEMBERS)),
    "group-metadata-v1": fuzz_input(group_key(), group_value(1, MEMBERS)),
    "group-metadata-v2": fuzz_input(group_key(), group_value(2, MEMBERS)),
    "group-metadata-v3": fuzz_input(group_key(), group_value(3, MEMBERS)),
    "group-metadata-v4-flexible": fuzz_input(group_key(), group_value(4, MEMBERS)),
    "group-metadata-empty-group": fuzz_input(group_key(), group_value(3, [])),
    "group-metadata-connect": fuzz_input(group_key(), group_value(3, [("w-1", None, b"\x00\x01", b"x")], "connect")),
    "group-metadata-tombstone": fuzz_input(group_key(), b"", tombstone=True),
    "consumer-group-epoch": fuzz_input(cg_key(3), i16(0) + i32(4) + uvarint(0)),
    "consumer-group-epoch-metadata-hash": fuzz_input(cg_key(3), i16(0) + i32(4) + tagged({0: i64(-5), 9: b"abc"})),
    "consumer-group-partition-metadata": fuzz_input(cg_key(4), i16(0) + array(1, True) + TOPIC_ID + string("orders", True) + i32(3) + array(1, True) + i32(0) + array(1, True) + string("rack-a", True) + uvarint(0) + uvarint(0) + uvarint(0)),
    "consumer-group-member": fuzz_input(cg_key(5, "m-1"), cg_member_metadata()),
    "consumer-group-classic-member": fuzz_input(cg_key(5, "m-1"), cg_member_metadata(True)),
    "consumer-group-target-epoch": fuzz_input(cg_key(6), i16(0) + i32(4) + tagged({0: i64(1700000000555)})),
    "consumer-group-target-member": fuzz_input(cg_key(7, "m-1"), i16(0) + array(2, True) + cg_topic_partitions([0, 1]) + cg_topic_partitions([2]) + uvarint(0)),
    "consumer-group-current-assignment": fuzz_input(cg_key(8, "m-1"), cg_current_assignment()),
    "consumer-group-current-assignment-epochs": fuzz_input(cg_key(8, "m-1"), cg_current_assignment(True)),
    "consumer-group-member-tombstone": fuzz_input(cg_key(8, "m-1"), b"", tombstone=True),
    "consumer-group-epoch-tombstone": fuzz_input(cg_key(3), b"", tombstone=True),
    "unknown-consumer-group-value-v1": fuzz_input(cg_key(3), i16(1) + i32(4)),
    "unknown-share-group-key-11": fuzz_input(i16(11) + string("payments"), i16(0) + string("x")),
    "unknown-offset-commit-value-v5": fuzz_input(offset_key(), i16(5) + i64(1)),
    "invalid-truncated-group-metadata": fuzz_input(group_key(), group_value(3, MEMBERS)[:40]),
    "invalid-huge-member-count": fuzz_input(group_key(), i16(0) + string("consumer") + i32(1) + string(None) + string(None) + i32(0x7fffffff)),
    "invalid-long-varint": fuzz_input(group_key(), i16(4) + b"\xff\xff\xff\xff\xff\x01"),
    "invalid-empty-key": bytes([0]) + offset_value(2),
    "consumer-assignment-only": fuzz_input(b"", assignment(1, [("orders", [0, 1, 2])])),
    "consumer-subscription-only": fuzz_input(b"", subscription(1, ["orders", "audit"], [("orders", [1])])),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(SEEDS)} seeds to {OUT}")


if __name__ == "__main__":
    main()
