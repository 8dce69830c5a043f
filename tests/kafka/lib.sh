# Shared helpers for the test-bed scripts (sourced, not run).
# The broker and tools run from Kafka's own jars, resolved by Maven into ~/.m2.

testbed_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# Prints the Java classpath of the pinned Kafka release. The first call resolves it with
# Maven (network); later calls read a cache keyed by the pom's content, and Maven runs
# offline, so a second run needs no network.
kafka_classpath() {
  command -v java >/dev/null || die "java not found: run installer/install-deps.sh"
  command -v mvn >/dev/null || die "mvn not found: run installer/install-deps.sh"
  local cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/groupscope"
  local key
  key=$(sha256sum "$testbed_dir/pom.xml" | cut -c1-16)
  local cache="$cache_dir/kafka-classpath-$key"
  if [ -s "$cache" ] && classpath_complete "$cache"; then
    cat "$cache"
    return
  fi
  mkdir -p "$cache_dir"
  local tmp="$cache.tmp.$$"
  if ! mvn -q -B -o -f "$testbed_dir/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >/dev/null 2>&1; then
    mvn -q -B -f "$testbed_dir/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >&2 ||
      die "could not resolve the Kafka jars from Maven Central (see the Maven output above)"
  fi
  mv "$tmp" "$cache"
  cat "$cache"
}

# True when every jar named in the cached classpath still exists in ~/.m2.
classpath_complete() {
  local jar
  while IFS= read -r jar; do [ -f "$jar" ] || return 1; done < <(tr ':' '\n' <"$1")
}

# A free TCP port on 127.0.0.1, below the kernel's ephemeral range: `restart` brings a
# stopped broker back on its old ports, and a port from the ephemeral range may meanwhile
# have become the local end of some client's connection.
free_port() {
  python3 - <<'PY'
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
candidates = list(range(10000, max(10001, low)))
random.shuffle(candidates)
for port in candidates[:2000]:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}
