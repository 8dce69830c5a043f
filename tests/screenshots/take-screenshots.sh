#!/usr/bin/env bash
# Takes screenshots of the real, running Groupscope GUI under Xvfb.
#
#   take-screenshots.sh [--binary PATH] [--demo-data] [--group G] [--empty-group G]
#                       [--timeline-group G] [--transaction-group G] [--alerts] BOOTSTRAP OUTDIR
#
# Starts build/gui/app/groupscope (or --binary) on a virtual 1200x800 screen against the
# broker BOOTSTRAP, waits until the window title reports the groups it found (the title
# changes with the first successful refresh), and writes OUTDIR/main-window.png.
# With --group G (a group with commits, e.g. the sandbox's "billing") it also opens G and
# writes group-detail.png (its Members tab) and offset-table.png (two partitions edited in
# the offsets table by keyboard). With --empty-group G (a group without members, e.g. the
# sandbox's "archive") it edits one partition of G and opens the Apply confirmation:
# confirm-dialog.png. With --timeline-group G (a group that rebalances, e.g. the sandbox's
# "shipping") it opens G, lets the live monitor collect a minute, and writes lag-chart.png
# and rebalance-timeline.png. Keys are typed with xkeys.py (XTEST); nothing is ever applied.
# With --transaction-group G it writes G's data first with the test bed's Kafka tools: topic
# G-payments holds five records of one committed transaction (Kafka's transactional
# producer) and G commits after the last record, so only the commit marker is left (plain
# lag 1, effective lag 0); topic G-audit holds three plain records G has not read. It opens
# G's Partitions tab: transactional-partition.png.
# --demo-data first fills the broker with a few topics and groups (demo-groups.py) and keeps
# one live member in 'inventory-sync' while the shot is taken, so the list shows a Stable
# group next to Empty ones. --alerts also runs alert-screenshots.sh (a stuck rebalance of a
# watched group: alert-notification.png, health-tooltip.png). Needs xvfb-run, xwininfo and
# ImageMagick's import.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"

# Shoots the screen into $1 once two shots in a row are the same picture (the window is
# fully painted); live data may keep changing, so after a few tries the last shot stands.
shoot() {
  local shot="$1" previous="$1.previous.png"
  import -window root "$previous"
  for _ in $(seq 12); do
    sleep 0.4
    import -window root "$shot"
    if [ "$(compare -metric AE "$previous" "$shot" null: 2>&1)" = "0" ]; then
      rm -f "$previous"
      return 0
    fi
    mv "$shot" "$previous"
  done
  mv "$previous" "$shot"
}

# Starts the GUI with "$@" and waits until its title shows groups (and, with a group, the
# detail had a refresh to fill it).
start_gui() {
  "$binary" --bootstrap-server "$bootstrap" "$@" &
  gui_pid=$!
  local deadline=$((SECONDS + 60))
  until xwininfo -root -tree 2>/dev/null | grep -q 'Groupscope .*group'; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$gui_pid" 2>/dev/null; then
      echo "the window never showed groups" >&2
      exit 1
    fi
    sleep 0.5
  done
  sleep 2.5 # one more refresh: the detail pane and its preview are filled
}

stop_gui() {
  kill "$gui_pid" 2>/dev/null || true
  wait "$gui_pid" 2>/dev/null || true
}

# Inside the virtual display (xvfb-run re-runs this script).
if [ "${1:-}" = "--inside-display" ]; then
  binary="$2" bootstrap="$3" outdir="$4" group="$5" empty_group="$6" timeline_group="$7"
  transaction_group="$8"
  # A clean settings directory: no window geometry or profiles from earlier runs.
  XDG_CONFIG_HOME="$(mktemp -d)"
  export XDG_CONFIG_HOME GROUPSCOPE_NO_KEYCHAIN=1
  gui_pid=""
  trap 'stop_gui' EXIT
  # The first click (on the detail's header line, where it changes nothing) gives the
  # window the keyboard focus: there is no window manager to do it.
  keys() { /usr/bin/python3 "$here/xkeys.py" click:900,272 "$@"; }

  if [ -n "$transaction_group" ]; then
    start_gui --group "$transaction_group"
    keys alt+1
    shoot "$outdir/transactional-partition.png"
    stop_gui
    exit 0
  fi
  if [ -n "$group" ]; then
    start_gui --group "$group"
  else
    start_gui
  fi
  shoot "$outdir/main-window.png"
  if [ -n "$group" ]; then
    keys alt+2
    shoot "$outdir/group-detail.png"
    # Offsets tab; first row: mode "shift" (3 up from "current"), value -250; second row:
    # mode "earliest". The preview is planned on the worker meanwhile.
    keys alt+5 ctrl+Home Right Right Right Right Right Right F2 Up Up Up Return \
      Right F2 ctrl+a text:-250 Return Down Left F2 Up Up Return
    sleep 2
    shoot "$outdir/offset-table.png"
  fi
  stop_gui
  if [ -n "$empty_group" ]; then
    start_gui --group "$empty_group"
    keys alt+5 ctrl+Home Right Right Right Right Right Right F2 Up Up Up Return \
      Right F2 ctrl+a text:-100 Return
    sleep 3
    keys ctrl+Return
    sleep 1.5
    shoot "$outdir/confirm-dialog.png"
    keys Escape
  fi
  if [ -n "$timeline_group" ]; then
    XDG_CONFIG_HOME="$(mktemp -d)" # the default layout, not the one the runs above left
    start_gui --group "$timeline_group"
    keys alt+4
    sleep 60 # a minute of live history: a few generations and lag samples
    shoot "$outdir/rebalance-timeline.png"
    keys alt+3
    shoot "$outdir/lag-chart.png"
    stop_gui
  fi
  exit 0
fi

repo="$(cd "$here/../.." && pwd)"
binary="$repo/build/gui/app/groupscope"
demo=0
alerts=0
group=""
empty_group=""
timeline_group=""
transaction_group=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --demo-data) demo=1; shift ;;
    --group) group="$2"; shift 2 ;;
    --empty-group) empty_group="$2"; shift 2 ;;
    --timeline-group) timeline_group="$2"; shift 2 ;;
    --transaction-group) transaction_group="$2"; shift 2 ;;
    --alerts) alerts=1; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--binary PATH] [--demo-data] [--group G] [--empty-group G] [--timeline-group G] [--transaction-group G] [--alerts] BOOTSTRAP OUTDIR" >&2; exit 2; }
bootstrap="$1"
outdir="$2"
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
[ -x "$binary" ] || { echo "no GUI binary at $binary (build it, or pass --binary)" >&2; exit 1; }

member_pid=""
cleanup() {
  if [ -n "$member_pid" ]; then kill "$member_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# Polls "$@" every half second until it succeeds or `timeout` seconds pass.
wait_until() {
  local timeout="$1"; shift
  local deadline=$((SECONDS + timeout))
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.5
  done
}

group_is_stable() {
  "$repo/tests/kafka/kafka-consumer-groups" --bootstrap-server "$bootstrap" \
    --describe --group "$1" --state 2>/dev/null | grep -q Stable
}

if [ "$demo" = 1 ]; then
  echo "filling $bootstrap with demo groups"
  /usr/bin/python3 "$here/demo-groups.py" "$bootstrap" setup
  /usr/bin/python3 "$here/demo-groups.py" "$bootstrap" member &
  member_pid=$!
  wait_until 90 group_is_stable inventory-sync || { echo "inventory-sync never became Stable" >&2; exit 1; }
fi

log_end() {
  kcat -b "$bootstrap" -Q -t "$1:0:-1" 2>/dev/null | awk '{print $NF}'
}

if [ -n "$transaction_group" ]; then
  txn_topic="$transaction_group-payments"
  plain_topic="$transaction_group-audit"
  for topic in "$txn_topic" "$plain_topic"; do
    /usr/bin/python3 -c "import sys; from kafka.admin import KafkaAdminClient, NewTopic
KafkaAdminClient(bootstrap_servers=sys.argv[1]).create_topics([NewTopic(sys.argv[2], 1, 1)])" \
      "$bootstrap" "$topic"
  done
  "$repo/tests/kafka/kafka-producer-perf-test" --topic "$txn_topic" --num-records 5 \
    --record-size 10 --throughput -1 --transactional-id "$txn_topic-producer" \
    --transaction-duration-ms 600000 --command-property "bootstrap.servers=$bootstrap" >/dev/null
  marker_written() { [ "$(log_end "$txn_topic")" = 6 ]; }
  wait_until 30 marker_written || { echo "the commit marker never reached $txn_topic" >&2; exit 1; }
  printf 'a:one\nb:two\nc:three\n' | kcat -P -b "$bootstrap" -t "$plain_topic" -K:
  /usr/bin/python3 -c "import sys; from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=sys.argv[1], group_id=sys.argv[2], enable_auto_commit=False)
c.commit({TopicPartition(sys.argv[3], 0): OffsetAndMetadata(5, None),
          TopicPartition(sys.argv[4], 0): OffsetAndMetadata(0, None)})
c.close()" "$bootstrap" "$transaction_group" "$txn_topic" "$plain_topic"
fi

xvfb-run --auto-servernum --server-args="-screen 0 1200x800x24" \
  "$0" --inside-display "$binary" "$bootstrap" "$outdir" "$group" "$empty_group" "$timeline_group" \
  "$transaction_group"
if [ "$alerts" = 1 ]; then
  "$here/alert-screenshots.sh" --binary "$binary" "$bootstrap" "$outdir"
fi
ls "$outdir"/*.png
