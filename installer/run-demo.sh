#!/usr/bin/env bash
# The embedded default: a local Kafka broker (loopback only), the sandbox demo workload (with
# a share group and a streams group beside it: installer/demo-members.sh),
# and the Groupscope GUI connected to them. Closing the GUI stops the workload and the
# broker. Expects a build in build/release (the README's run command makes it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${GROUPSCOPE_BUILD_DIR:-$root/build/release}"
state="${XDG_STATE_HOME:-$HOME/.local/state}/groupscope/demo-broker"
for binary in groupscope groupscope-cli; do
  [ -x "$build/app/$binary" ] || { echo "run-demo: $build/app/$binary not built" >&2; exit 1; }
done

bootstrap=$("$root/tests/kafka/broker" start --dir "$state" | sed -n 's/^bootstrap=//p' | tail -n1)
[ -n "$bootstrap" ] || { echo "run-demo: the broker did not start (see $state)" >&2; exit 1; }
echo "run-demo: broker at $bootstrap (data and logs in $state)"

"$build/app/groupscope-cli" --bootstrap-server "$bootstrap" sandbox --quiet &
sandbox_pid=$!
# A share group and a streams group beside the sandbox's classic and consumer groups.
"$root/installer/demo-members.sh" "$bootstrap" &
members_pid=$!
cleanup() {
  kill -TERM "$members_pid" 2>/dev/null && wait "$members_pid" 2>/dev/null || true
  kill -TERM "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null || true
  "$root/tests/kafka/broker" stop --dir "$state" >/dev/null || true
}
trap cleanup EXIT INT TERM

"$build/app/groupscope" --bootstrap-server "$bootstrap" "$@"
