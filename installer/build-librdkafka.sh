#!/usr/bin/env bash
# Brings a librdkafka new enough for Groupscope (GROUPSCOPE_MIN_RDKAFKA, default 2.12) when
# the system's is older, without touching the system's: Debian 12 ships 2.0.2, which kcat
# and other programs keep using.
#
# It takes Debian's own librdkafka source package from Debian's development suite, through
# apt with a private configuration (its own sources list, package lists and cache under
# the build directory; the archive's address is read from this system's apt sources, so
# apt verifies the source package against the archive's signed index as usual), builds the
# upstream source it contains, and installs it into a private prefix:
#
#   ${XDG_CACHE_HOME:-~/.cache}/groupscope/librdkafka-VERSION
#
# with a stable link ${XDG_CACHE_HOME:-~/.cache}/groupscope/librdkafka -> that directory,
# which CMake looks in first. A second run finds the prefix and does nothing. Prints the
# prefix as its last line (or "system" when the system's librdkafka is new enough).
#
# Needs (installer/install-deps.sh installs them): apt, dpkg-dev (dpkg-source), a C
# toolchain, pkg-config, and the libraries librdkafka links (OpenSSL, zlib, zstd, lz4,
# libcurl, Cyrus SASL).
set -euo pipefail

minimum="${GROUPSCOPE_MIN_RDKAFKA:-2.12}"
suite="${GROUPSCOPE_RDKAFKA_SUITE:-sid}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/groupscope"
link="$cache/librdkafka"

say() { echo "build-librdkafka: $*" >&2; }
die() { say "$*"; exit 1; }

version_at_least() { # A B: A >= B (dotted numbers)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

if [ -z "${GROUPSCOPE_FORCE_PRIVATE_RDKAFKA:-}" ] && pkg-config --exists rdkafka &&
   version_at_least "$(pkg-config --modversion rdkafka)" "$minimum"; then
  say "the system's librdkafka $(pkg-config --modversion rdkafka) is new enough"
  echo system
  exit 0
fi
# The configuration table's source is kept beside the library: a test reads which
# properties librdkafka marks sensitive from it. A prefix without it is built again.
conf_source=share/groupscope/rdkafka_conf.c
if [ -f "$link/lib/pkgconfig/rdkafka-static.pc" ] && [ -f "$link/lib/librdkafka.a" ] &&
   [ -f "$link/$conf_source" ]; then
  have=$(sed -n 's/^Version: *//p' "$link/lib/pkgconfig/rdkafka-static.pc")
  if version_at_least "$have" "$minimum"; then
    say "using librdkafka $have in $(readlink -f "$link")"
    readlink -f "$link"
    exit 0
  fi
fi

# The archive this system installs from, as its apt sources name it (deb822 or one-line).
mirror=""
for sources in /etc/apt/sources.list.d/*.sources; do
  [ -f "$sources" ] || continue
  mirror=$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}' "$sources")
  [ -n "$mirror" ] && break
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || die "no Debian archive found in this system's apt sources"

work=$(mktemp -d "${TMPDIR:-/tmp}/groupscope-librdkafka.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src"
echo "deb-src $mirror $suite main" >"$work/apt/sources.list"
apt_private=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache"
  -o Debug::NoLocking=1)
# As root, apt would hand the download to its _apt user, who cannot write to this
# private directory; as anyone else it runs as that user anyway.
[ "$(id -u)" -ne 0 ] || apt_private+=(-o APT::Sandbox::User=root)

say "fetching Debian's librdkafka source package ($suite)"
apt-get "${apt_private[@]}" -qq update >&2 || die "apt could not read the $suite source index"
(cd "$work/src" && apt-get "${apt_private[@]}" -qq source --download-only librdkafka >&2) ||
  die "apt could not fetch the librdkafka source package"
dsc=$(ls "$work"/src/librdkafka_*.dsc | head -n1)
# Upstream's source as Debian ships it; Debian's patches switch to system copies of
# bundled libraries (nanopb, cJSON) that Debian 12 lacks, so they are left out.
dpkg-source --skip-patches -x "$dsc" "$work/src/librdkafka" >"$work/dpkg-source.log" 2>&1 ||
  { cat "$work/dpkg-source.log" >&2; die "unpacking $dsc failed"; }
version=$(sed -n 's/^Version: *\([0-9.]*\).*/\1/p' "$dsc")
version_at_least "$version" "$minimum" ||
  die "Debian's $suite has librdkafka $version, older than the $minimum Groupscope needs"

prefix="$cache/librdkafka-$version"
say "building librdkafka $version into $prefix"
mkdir -p "$cache"
(
  cd "$work/src/librdkafka"
  # GSSAPI (Kerberos) stays off: it would tie the static library to Cyrus SASL's plugins;
  # PLAIN, SCRAM and OAUTHBEARER are built in.
  ./configure --prefix="$prefix" --disable-gssapi >"$work/configure.log" 2>&1 ||
    { tail -n 30 "$work/configure.log" >&2; exit 1; }
  make -j"$(nproc)" libs >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; }
  make install-subdirs >"$work/install.log" 2>&1 || { tail -n 30 "$work/install.log" >&2; exit 1; }
  install -D -m 644 src/rdkafka_conf.c "$prefix/$conf_source"
) || die "building librdkafka $version failed"
ln -sfn "$prefix" "$link"
say "librdkafka $version installed in $prefix"
echo "$prefix"
