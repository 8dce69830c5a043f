#!/usr/bin/env python3
"""Writes the seed corpus for FuzzOffsetsTopicDecoder into corpus/offsets-topic/.

Each file is one fuzz input: a first byte whose low seven bits are the key length and whose
high bit marks a tombstone, then the key, then the value. The records follow Kafka's
published schemas (OffsetCommitKey/Value, GroupMetadataKey/Value, ConsumerProtocol*).
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
    "unknown-key-v3": fuzz_input(i16(3) + string("payments"), i16(0) + string("x")),
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
