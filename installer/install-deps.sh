#!/usr/bin/env bash
# Installs every build, test and runtime dependency of Groupscope from Debian packages.
# Idempotent: when everything is present it prints one line and does nothing else.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config clang-format
  # a fast linker: CI links ~130 test programs three times (CMakeLists.txt uses it if found)
  mold
  # fuzzing the parsers (libFuzzer comes with clang's runtime)
  clang libclang-rt-14-dev
  qt6-base-dev qt6-base-dev-tools libgl-dev
  # the write journal: Qt SQL's SQLite driver
  libqt6sql6-sqlite
  libqcustomplot-dev qtkeychain-qt6-dev
  # librdkafka is built from Debian's own source package (installer/build-librdkafka.sh):
  # Debian 12's 2.0.2 is too old. What that build needs:
  libssl-dev zlib1g-dev libzstd-dev liblz4-dev libcurl4-openssl-dev
  # the exporter checks basic-auth passwords against bcrypt hashes with crypt_r, and deflates
  # its rendered text with ISA-L's igzip
  libcrypt-dev libisal-dev
  # test bed: the real Kafka broker runs on the JDK; its jars come from Maven Central
  default-jdk-headless maven
  # independent clients used as oracles in tests
  kcat python3-kafka
  # the exporter's integration test scrapes it with a real Prometheus server (the test runs
  # /usr/bin/prometheus itself; Debian's service is masked below, so it never starts)
  prometheus
  # GUI tests and screenshots; dbus-daemon gives the notification tests a session bus of
  # their own, dunst shows the alerts' desktop notifications in the screenshots, trayer is
  # the system tray of the tray icon's test (tests/support/with-tray)
  xvfb xauth x11-apps imagemagick dbus dunst trayer
  # networking helpers used by the test bed scripts
  procps iproute2 curl
  # the secured test broker (tests/kafka/broker start --secure) makes its certificates
  openssl
  # packaging (installer/Packaging.cmake, tests/packaging): CPack's shlibdeps needs
  # dpkg-shlibdeps and file; the checks run lintian, appstreamcli, desktop-file-validate
  dpkg-dev file lintian appstream desktop-file-utils
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

librdkafka() {
  "$(dirname "$0")/build-librdkafka.sh" >/dev/null
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  librdkafka
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: apt-get not found; install these by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "install-deps: must run as root (or with sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

# Debian's prometheus package enables and starts its service where systemd runs: a server
# listening on every interface (:9090). The tests run /usr/bin/prometheus themselves, on
# loopback, so the service is masked (what `systemctl mask` writes) before the package
# arrives and never starts. A prometheus installed before is left as it is.
for p in "${missing[@]}"; do
  if [ "$p" = prometheus ] && [ ! -e /etc/systemd/system/prometheus.service ]; then
    $sudo mkdir -p /etc/systemd/system
    $sudo ln -s /dev/null /etc/systemd/system/prometheus.service
    if [ -d /run/systemd/system ]; then $sudo systemctl daemon-reload; fi
    echo "install-deps: masked prometheus.service (the tests start their own server)"
  fi
done

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
librdkafka
echo "install-deps: done"
