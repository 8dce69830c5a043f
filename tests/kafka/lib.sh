# Shared helpers for the test-bed scripts (sourced, not run).
# The broker and tools run from Kafka's own jars, resolved by Maven into ~/.m2.

testbed_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# The Kafka release the test bed runs: 4.4 (Apache Kafka 4.4.0, the default) or 3.9
# (3.9.2, for the compatibility subset), from GROUPSCOPE_KAFKA; a broker directory started
# with one release keeps it (see tests/kafka/broker --kafka).
kafka_release() {
  local release="${GROUPSCOPE_KAFKA:-4.4}"
  case "$release" in
    4.4|3.9) echo "$release" ;;
    *) die "GROUPSCOPE_KAFKA is '$release': the test bed has Kafka 4.4 and 3.9" ;;
  esac
}

# Prints the Java classpath of the release's pinned jars (tests/kafka/pom-RELEASE.xml).
# The first call resolves it with Maven (network); later calls read a cache keyed by the
# pom's content, and Maven runs offline, so a second run needs no network.
kafka_classpath() {
  command -v java >/dev/null || die "java not found: run installer/install-deps.sh"
  command -v mvn >/dev/null || die "mvn not found: run installer/install-deps.sh"
  local pom="$testbed_dir/pom-$(kafka_release).xml"
  local cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/groupscope"
  local key
  key=$(sha256sum "$pom" | cut -c1-16)
  local cache="$cache_dir/kafka-classpath-$key"
  if [ -s "$cache" ] && classpath_complete "$cache"; then
    cat "$cache"
    return
  fi
  mkdir -p "$cache_dir"
  local tmp="$cache.tmp.$$"
  if ! mvn -q -B -o -f "$pom" dependency:build-classpath -Dmdep.outputFile="$tmp" >/dev/null 2>&1; then
    mvn -q -B -f "$pom" dependency:build-classpath -Dmdep.outputFile="$tmp" >&2 ||
      die "could not resolve the Kafka jars from Maven Central (see the Maven output above)"
  fi
  mv "$tmp" "$cache"
  cat "$cache"
}

# The JVM option that points the release's logging at its configuration file: Kafka 3
# logs through reload4j (log4j 1: PREFIX.properties), Kafka 4 through Log4j 2
# (PREFIX2.properties), e.g. tools-log4j.properties and tools-log4j2.properties.
kafka_logging_option() {
  case "$(kafka_release)" in
    3.9) echo "-Dlog4j.configuration=file:${1}.properties" ;;
    *) echo "-Dlog4j2.configurationFile=${1}2.properties" ;;
  esac
}

# Runs one of Kafka's tools (a main class) from the release's jars; it logs warnings and
# errors only, to stderr, so its stdout stays parseable.
kafka_tool() {
  local classpath
  classpath=$(kafka_classpath)
  exec java -Xmx512m -cp "$classpath" "$(kafka_logging_option "$testbed_dir/tools-log4j")" "$@"
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

# Dies unless the test bed runs Kafka 4 (a tool or group type that 3.9 does not have).
require_kafka4() {
  [ "$(kafka_release)" != 3.9 ] || die "$1 needs Kafka 4 (GROUPSCOPE_KAFKA is 3.9)"
}

# Compiles one Java source of the test bed against the Kafka classpath CLASSPATH, once: into a
# cache directory keyed by the hash of the source and of the classpath, which later runs
# reuse. Prints that directory.
compiled_java_classes() {
  local source_file="$1" classpath="$2" name key cache_dir classes tmp
  command -v javac >/dev/null || die "javac not found: run installer/install-deps.sh"
  name=$(basename "$source_file" .java)
  key=$( { sha256sum "$source_file" | cut -d' ' -f1; echo "$classpath"; } | sha256sum | cut -c1-16)
  cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/groupscope"
  classes="$cache_dir/$name-$key"
  if [ ! -f "$classes/$name.class" ]; then
    mkdir -p "$cache_dir"
    # Compiled into a directory of its own and renamed into place: two runs that start
    # together never see half-written classes.
    tmp=$(mktemp -d "$cache_dir/$name-$key.tmp.XXXXXX")
    if ! javac -nowarn -encoding UTF-8 -d "$tmp" -cp "$classpath" "$source_file" >"$tmp.log" 2>&1; then
      cat "$tmp.log" >&2
      rm -rf "$tmp" "$tmp.log"
      die "compiling $source_file failed"
    fi
    rm -f "$tmp.log"
    mv -T "$tmp" "$classes" 2>/dev/null || rm -rf "$tmp" # another run was first
  fi
  echo "$classes"
}
