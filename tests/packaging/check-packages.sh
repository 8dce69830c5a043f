#!/usr/bin/env bash
# check-packages.sh BUILD_DIR VERSION
#
# Builds the packages (cmake --build BUILD_DIR --target package) and checks them the way a
# user meets them: the .deb's control data and file list, the binaries and the GUI run
# from the unpacked .deb, the desktop entry and AppStream metadata validate, lintian
# reports no errors, apt can satisfy the computed dependencies, and the tar.gz runs from
# an arbitrary directory. Needs dpkg-dev, lintian, appstream and desktop-file-utils
# (installer/install-deps.sh installs them).
set -euo pipefail

build_dir=${1:?usage: check-packages.sh BUILD_DIR VERSION}
version=${2:?usage: check-packages.sh BUILD_DIR VERSION}
cmake=${CMAKE_COMMAND:-cmake}
build_dir=$(cd "$build_dir" && pwd) # apt-get takes a local .deb only by a path with a slash

failures=0
ok() { echo "ok - $*"; }
fail() { echo "FAIL - $*" >&2; failures=$((failures + 1)); }
die() { echo "FAIL - $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps lintian appstreamcli desktop-file-validate readelf timeout; do
  command -v "$tool" >/dev/null || die "$tool not found: run installer/install-deps.sh"
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/groupscope-packaging.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# --- build -------------------------------------------------------------------------------
"$cmake" --build "$build_dir" --target package >"$scratch/package.log" 2>&1 ||
  { cat "$scratch/package.log" >&2; die "cmake --build $build_dir --target package"; }
ok "cmake --build --target package"

arch=$(dpkg --print-architecture)
shopt -s nullglob
debs=("$build_dir"/packages/groupscope_"$version"-*_"$arch".deb)
tars=("$build_dir"/packages/groupscope-"$version"-linux-*.tar.gz)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || die "expected one groupscope_${version}-*_${arch}.deb in $build_dir/packages, found ${#debs[@]}"
[ ${#tars[@]} -eq 1 ] || die "expected one groupscope-${version}-linux-*.tar.gz in $build_dir/packages, found ${#tars[@]}"
deb=${debs[0]}
tarball=${tars[0]}
ok "built $(basename "$deb") and $(basename "$tarball")"

# --- .deb metadata -----------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = groupscope ] || fail "Package is '$(field Package)', not groupscope"
deb_version=$(field Version)
[[ "$deb_version" == "$version"-* ]] || fail "Version '$deb_version' does not start with the project version $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)', not $arch"
[[ "$(field Maintainer)" =~ ^[^\<]+\ \<[^\>@]+@[^\>]+\>$ ]] || fail "Maintainer '$(field Maintainer)' is not 'Name <address>'"
[ -n "$(field Section)" ] || fail "no Section"
[ -n "$(field Installed-Size)" ] || fail "no Installed-Size"
description=$(field Description)
[ "$(printf '%s\n' "$description" | wc -l)" -ge 3 ] || fail "Description has no extended description"
depends=$(field Depends)
echo "   Depends: $depends"
# Computed by dpkg-shlibdeps: every library the binaries link, with versions from the
# shlibs/symbols files. These names are Debian 12's; a newer Qt brings its own.
for lib in libc6 'libstdc++6' libqt6core6 libqt6gui6 libqt6widgets6 'libqcustomplot2.1-qt6'; do
  grep -Eq "(^|, )${lib//+/\\+}( \\(>= [^)]+\\))?(,|$| \\|)" <<<"$depends" || fail "Depends lacks $lib"
done
# librdkafka is linked statically (Debian 12's librdkafka1 is 2.0.2, older than Groupscope
# needs), unless the build used a system librdkafka that is new enough.
if ! pkg-config --atleast-version=2.12 rdkafka 2>/dev/null; then
  if grep -Eq '(^|, )librdkafka' <<<"$depends"; then fail "Depends names librdkafka, which is linked statically"; fi
fi
grep -q '(>= ' <<<"$depends" || fail "Depends carries no versions: not computed by dpkg-shlibdeps?"
if grep -Eq -- '-dev\b' <<<"$depends"; then fail "Depends names a -dev package"; fi
ok "control: groupscope $deb_version, $(field Architecture), Section $(field Section)"

# --- .deb file list ----------------------------------------------------------------------
dpkg-deb -c "$deb" >"$scratch/contents"
awk '$1 !~ /^d/ { print $6 }' "$scratch/contents" | sed 's|^\./|/|' | sort >"$scratch/files"
expected=(
  /usr/bin/groupscope
  /usr/bin/groupscope-cli
  /usr/share/applications/org.groupscope.Groupscope.desktop
  /usr/share/metainfo/org.groupscope.Groupscope.metainfo.xml
  /usr/share/icons/hicolor/scalable/apps/groupscope.svg
  /usr/share/man/man1/groupscope-cli.1.gz
  /usr/share/man/man1/groupscope.1.gz
  /usr/share/doc/groupscope/copyright
  /usr/share/doc/groupscope/changelog.gz
  /usr/share/doc/groupscope/changelog.Debian.gz
  /usr/share/doc/groupscope/examples/groupscope-exporter.service
)
for size in 16 24 32 48 64 128 256; do
  expected+=("/usr/share/icons/hicolor/${size}x${size}/apps/groupscope.png")
done
printf '%s\n' "${expected[@]}" | sort >"$scratch/expected"
if ! diff -u "$scratch/expected" "$scratch/files" >"$scratch/files.diff"; then
  cat "$scratch/files.diff" >&2
  fail "file list differs from the expected one (- missing, + unexpected)"
else
  ok "file list: ${#expected[@]} files, nothing else"
fi
awk '$1 !~ /^d/ && $2 != "root/root" { print }' "$scratch/contents" | grep . &&
  fail "files not owned by root/root"
grep -E '^-rwxr-xr-x .* \./usr/bin/groupscope(-cli)?$' "$scratch/contents" | wc -l | grep -qx 2 ||
  fail "binaries are not mode 0755"

# --- installed from the .deb into a scratch root ------------------------------------------
root="$scratch/root"
dpkg-deb -x "$deb" "$root"

check_version() { # binary, expected output
  local out
  out=$("$1" --version 2>&1) || { fail "$1 --version exited with $?: $out"; return; }
  [ "$out" = "$2" ] || { fail "$1 --version printed '$out', expected '$2'"; return; }
  ok "$(basename "$1") --version: $out"
}
# The CLI also names its librdkafka: the private one linked in, not the system's 2.0.2.
rdkafka_in_use=$("$root/usr/bin/groupscope-cli" --version 2>&1 | sed -n 's/^librdkafka //p')
check_version "$root/usr/bin/groupscope-cli" "groupscope-cli $version
librdkafka $rdkafka_in_use"
[ "$(printf '%s\n2.12\n' "$rdkafka_in_use" | sort -V | head -n1)" = 2.12 ] ||
  fail "groupscope-cli runs librdkafka '$rdkafka_in_use', older than 2.12"
check_version "$root/usr/bin/groupscope" "groupscope $version"

# Start the GUI offscreen against an address where no broker listens, let it run, then
# send SIGTERM as a logout or `timeout` would. It must have run until the signal (an early
# exit is a crash, an abort or a missing platform plugin) and then close its window and
# exit with status 0 (dying by the signal would be 143).
start_gui() { # binary, label
  local status=0 started=$SECONDS
  env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen HOME="$scratch/home" \
    XDG_CONFIG_HOME="$scratch/home/.config" XDG_DATA_HOME="$scratch/home/.local/share" \
    XDG_CACHE_HOME="$scratch/home/.cache" XDG_RUNTIME_DIR="$scratch/runtime" \
    timeout --preserve-status -s TERM 4 "$1" --bootstrap-server 127.0.0.1:1 >"$scratch/gui.log" 2>&1 || status=$?
  local ran=$((SECONDS - started))
  if [ "$status" -eq 0 ] && [ "$ran" -ge 3 ] && ! grep -qi 'could not load the qt platform plugin' "$scratch/gui.log"; then
    ok "$2 ran offscreen until SIGTERM, then closed with status 0"
  else
    sed 's/^/   gui: /' "$scratch/gui.log" >&2
    fail "$2 did not run offscreen until SIGTERM and close cleanly (exit status $status after ${ran} s)"
  fi
}
mkdir -p "$scratch/home" "$scratch/runtime" && chmod 700 "$scratch/runtime"
start_gui "$root/usr/bin/groupscope" "installed groupscope"

# --- desktop integration files -----------------------------------------------------------
desktop-file-validate "$root/usr/share/applications/org.groupscope.Groupscope.desktop" ||
  fail "desktop-file-validate"
appstreamcli validate --no-net "$root/usr/share/metainfo/org.groupscope.Groupscope.metainfo.xml" ||
  fail "appstreamcli validate"
grep -q '^Icon=groupscope$' "$root/usr/share/applications/org.groupscope.Groupscope.desktop" ||
  fail ".desktop entry does not name the groupscope icon"
grep -q "<release version=\"$version\"" "$root/usr/share/metainfo/org.groupscope.Groupscope.metainfo.xml" ||
  fail "metainfo has no release $version"
zcat "$root/usr/share/doc/groupscope/changelog.Debian.gz" | head -1 |
  grep -qF "groupscope ($deb_version) " ||
  fail "changelog.Debian.gz does not start with $deb_version: add '## $version (date)' on top of resources/CHANGELOG.md"
zcat "$root/usr/share/man/man1/groupscope-cli.1.gz" | grep -q "^\.TH .*\"Groupscope $version\"" ||
  fail "man page does not carry version $version"
# Every option the binaries' --help lists is documented in their man pages (a command or
# flag added to the code but not to resources/*.1.in fails here).
check_man_covers_help() { # binary, man page
  local page documented missing=""
  page=$(zcat "$2" | sed 's/\\-/-/g')
  for option in $("$1" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    grep -qE -- "${option}([^a-z-]|$)" <<<"$page" || missing="$missing $option"
  done
  for command in $("$1" --help 2>&1 | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z-]+' | sort -u); do
    grep -qE "^\.B $command( |$)" <<<"$page" || missing="$missing $command"
  done
  [ -z "$missing" ] || fail "$(basename "$2") does not document:$missing"
}
check_man_covers_help "$root/usr/bin/groupscope-cli" "$root/usr/share/man/man1/groupscope-cli.1.gz"
check_man_covers_help "$root/usr/bin/groupscope" "$root/usr/share/man/man1/groupscope.1.gz"
ok "desktop entry, metainfo, changelog and man page"

# --- dependencies resolvable by apt (simulated; needs no root) --------------------------
if command -v apt-get >/dev/null; then
  if apt-get install --simulate --no-install-recommends "$deb" >"$scratch/apt.log" 2>&1; then
    ok "apt-get can install the .deb (simulated)"
  else
    cat "$scratch/apt.log" >&2
    fail "apt-get cannot satisfy the .deb's dependencies"
  fi
fi

# --- lintian -----------------------------------------------------------------------------
# Errors fail the test; warnings and information are shown.
if lintian --fail-on error --display-info "$deb" >"$scratch/lintian.log" 2>&1; then
  ok "lintian: no errors"
else
  fail "lintian reports errors"
fi
grep -v '^running with root privileges' "$scratch/lintian.log" | sed 's/^/   lintian: /' || true

# --- relocatable tar.gz ------------------------------------------------------------------
# Unpacked under a directory name with a space, far from the build and install paths.
unpack="$scratch/some where"
mkdir -p "$unpack"
tar -xzf "$tarball" -C "$unpack"
top="$unpack/$(basename "$tarball" .tar.gz)"
[ -d "$top/bin" ] || die "tarball has no top-level $(basename "$top")/bin"
for binary in groupscope groupscope-cli; do
  if readelf -d "$top/bin/$binary" | grep -Eq '\((RPATH|RUNPATH)\)'; then
    fail "$binary in the tarball carries an RPATH/RUNPATH: $(readelf -d "$top/bin/$binary" | grep -E 'RPATH|RUNPATH')"
  fi
done
pushd / >/dev/null
check_version "$top/bin/groupscope-cli" "groupscope-cli $version
librdkafka $rdkafka_in_use"
cd "$scratch"
check_version "$top/bin/groupscope" "groupscope $version"
popd >/dev/null
start_gui "$top/bin/groupscope" "groupscope from the tarball"
(cd "$top" && find . -type f | sed 's|^\./|/usr/|' | sort) >"$scratch/tar-files"
diff -u "$scratch/expected" "$scratch/tar-files" >&2 || fail "tarball file list differs from the .deb's"

if [ "$failures" -ne 0 ]; then
  echo "$failures packaging check(s) failed" >&2
  exit 1
fi
echo "all packaging checks passed"
