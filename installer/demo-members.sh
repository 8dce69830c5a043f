#!/usr/bin/env bash
# The demo's Kafka 4 group types beside the sandbox's classic and consumer groups: a share
# group (Kafka's console share consumer, group PREFIXorder-audit, reading PREFIXorders) and
# a streams group (the test bed's Kafka Streams word count, application PREFIXorder-words,
# from PREFIXorders to PREFIXorder-word-counts). Both come from the test bed's Kafka jars,
# which the broker already runs on. Waits for the sandbox's topics, runs until SIGTERM or
# SIGINT, then closes both members cleanly.
#
#   demo-members.sh BOOTSTRAP [NAME_PREFIX]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/tests/kafka"
bootstrap="${1:?usage: demo-members.sh BOOTSTRAP [NAME_PREFIX]}"
prefix="${2:-}"

deadline=$((SECONDS + 120))
until "$tools/kafka-topics" --bootstrap-server "$bootstrap" --describe \
    --topic "${prefix}orders" >/dev/null 2>&1; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "demo-members: topic ${prefix}orders did not appear (is the sandbox running?)" >&2
    exit 1
  fi
  sleep 1
done
"$tools/kafka-topics" --bootstrap-server "$bootstrap" --create --if-not-exists \
  --topic "${prefix}order-word-counts" --partitions 3 --replication-factor 1 >/dev/null

pids=()
stop() {
  [ "${#pids[@]}" -eq 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  exit 0
}
trap stop INT TERM
"$tools/kafka-console-share-consumer" --bootstrap-server "$bootstrap" \
  --topic "${prefix}orders" --group "${prefix}order-audit" >/dev/null &
pids+=($!)
"$tools/kafka-streams-app" --bootstrap-server "$bootstrap" \
  --application-id "${prefix}order-words" --input "${prefix}orders" \
  --output "${prefix}order-word-counts" >/dev/null &
pids+=($!)
echo "demo-members: share group ${prefix}order-audit and streams group ${prefix}order-words started"
wait
