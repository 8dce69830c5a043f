#!/usr/bin/env bash
# Screenshots of alerts and rebalance health on the real, running GUI under Xvfb:
#
#   alert-screenshots.sh [--binary PATH] BOOTSTRAP OUTDIR
#
# A private session bus with dunst (Debian's notification daemon) on the virtual screen
# shows the desktop notification. Two python3-kafka members make a stuck rebalance: one is
# assigned and then stops polling (its heartbeat thread keeps its 6 s session, it never
# rejoins), the other joins. The group is starred by keyboard before that (Ctrl+F to
# filter, Ctrl+L to the list, Space), so the stuck rebalance raises an alert: OUTDIR/
# alert-notification.png shows the notification and the alert panel, OUTDIR/
# health-tooltip.png the health tooltip of the rebalancing group. Needs xvfb-run,
# dbus-daemon, dunst, ImageMagick's import; taken by take-screenshots.sh --alerts.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"

shoot() {
  sleep 1
  import -window root "$1"
}

if [ "${1:-}" = "--inside-display" ]; then
  binary="$2" bootstrap="$3" outdir="$4" group="$5" topic="$6"
  XDG_CONFIG_HOME="$(mktemp -d)"
  export XDG_CONFIG_HOME GROUPSCOPE_NO_KEYCHAIN=1
  pids=()
  cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
  }
  trap cleanup EXIT

  # A session bus of our own for dunst and the GUI.
  bus_address_file="$(mktemp)"
  dbus-daemon --session --nofork --nopidfile --print-address=1 >"$bus_address_file" &
  pids+=($!)
  for _ in $(seq 50); do [ -s "$bus_address_file" ] && break; sleep 0.1; done
  DBUS_SESSION_BUS_ADDRESS="$(head -1 "$bus_address_file")"
  export DBUS_SESSION_BUS_ADDRESS
  dunst &
  pids+=($!)

  members="bootstrap_servers='$bootstrap', group_id='$group', session_timeout_ms=6000, heartbeat_interval_ms=1000, max_poll_interval_ms=120000"
  /usr/bin/python3 -u -c "
import time
from kafka import KafkaConsumer
c = KafkaConsumer('$topic', client_id='invoice-worker-1', enable_auto_commit=False, $members)
while not c.assignment():
    c.poll(timeout_ms=500)
print('assigned', flush=True)
time.sleep(3600)
" >"$outdir/.blocked.out" &
  pids+=($!)
  for _ in $(seq 180); do grep -q assigned "$outdir/.blocked.out" 2>/dev/null && break; sleep 0.5; done
  rm -f "$outdir/.blocked.out"

  "$binary" --bootstrap-server "$bootstrap" --group "$group" &
  gui_pid=$!
  pids+=($gui_pid)
  deadline=$((SECONDS + 60))
  until xwininfo -root -tree 2>/dev/null | grep -q 'Groupscope .*group'; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "the window never showed groups" >&2; exit 1; }
    sleep 0.5
  done
  sleep 3
  # Focus (a click on the detail's header line), filter the list to the group, star it.
  /usr/bin/python3 "$here/xkeys.py" click:900,272 ctrl+f "text:$group" ctrl+l Down space
  sleep 3 # a baseline refresh of the watched group

  /usr/bin/python3 -u -c "
from kafka import KafkaConsumer
c = KafkaConsumer('$topic', client_id='invoice-worker-2', $members)
while True:
    c.poll(timeout_ms=500)
" >/dev/null 2>&1 &
  pids+=($!)
  sleep 16 # stuck after the group's 6 s session timeout, then the alert
  shoot "$outdir/alert-notification.png"
  # Hover the health cell of the (only) row for its tooltip.
  /usr/bin/python3 "$here/xkeys.py" move:"${HEALTH_CELL:-812,87}"
  sleep 2
  shoot "$outdir/health-tooltip.png"
  exit 0
fi

repo="$(cd "$here/../.." && pwd)"
binary="$repo/build/gui/app/groupscope"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--binary PATH] BOOTSTRAP OUTDIR" >&2; exit 2; }
bootstrap="$1"
outdir="$2"
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
[ -x "$binary" ] || { echo "no GUI binary at $binary (build it, or pass --binary)" >&2; exit 1; }
suffix="$(date +%s)"
group="invoice-workers-$suffix"
topic="invoices-$suffix"
/usr/bin/python3 -c "
from kafka.admin import KafkaAdminClient, NewTopic
KafkaAdminClient(bootstrap_servers='$bootstrap').create_topics([NewTopic('$topic', 2, 1)])
"
xvfb-run --auto-servernum --server-args="-screen 0 1200x800x24" \
  "$0" --inside-display "$binary" "$bootstrap" "$outdir" "$group" "$topic"
ls "$outdir"/alert-notification.png "$outdir"/health-tooltip.png
