#!/usr/bin/env bash
# Takes screenshots of the real, running Groupscope GUI under Xvfb.
#
#   take-screenshots.sh [--binary PATH] [--demo-data] BOOTSTRAP OUTDIR
#
# Starts build/gui/app/groupscope (or --binary) on a virtual 1100x650 screen against the
# broker BOOTSTRAP, waits until the window title reports the groups it found (the title
# changes with the first successful refresh), and writes OUTDIR/main-window.png.
# --demo-data first fills the broker with a few topics and groups (demo-groups.py) and keeps
# one live member in 'inventory-sync' while the shot is taken, so the list shows a Stable
# group next to Empty ones. Needs xvfb-run, xwininfo and ImageMagick's import.
set -euo pipefail

# Inside the virtual display (xvfb-run re-runs this script): start the GUI, wait for data,
# shoot, stop the GUI.
if [ "${1:-}" = "--inside-display" ]; then
  binary="$2" bootstrap="$3" outdir="$4"
  "$binary" --bootstrap-server "$bootstrap" &
  gui_pid=$!
  trap 'kill "$gui_pid" 2>/dev/null || true' EXIT
  deadline=$((SECONDS + 60))
  until xwininfo -root -tree 2>/dev/null | grep -q 'Groupscope .*group'; do
    if [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$gui_pid" 2>/dev/null; then
      echo "the window never showed groups" >&2
      exit 1
    fi
    sleep 0.5
  done
  # The title changes just before the table repaints: shoot until two shots in a row are
  # the same picture, i.e. the window is fully painted.
  shot="$outdir/main-window.png" previous="$outdir/.previous-shot.png"
  import -window root "$previous"
  for _ in $(seq 20); do
    import -window root "$shot"
    if [ "$(compare -metric AE "$previous" "$shot" null: 2>&1)" = "0" ]; then
      rm -f "$previous"
      exit 0
    fi
    mv "$shot" "$previous"
  done
  echo "the window never settled" >&2
  exit 1
fi

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
binary="$repo/build/gui/app/groupscope"
demo=0
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --demo-data) demo=1; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--binary PATH] [--demo-data] BOOTSTRAP OUTDIR" >&2; exit 2; }
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

xvfb-run --auto-servernum --server-args="-screen 0 1100x650x24" \
  "$0" --inside-display "$binary" "$bootstrap" "$outdir"
echo "wrote $outdir/main-window.png"
