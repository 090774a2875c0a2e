#!/usr/bin/env bash
# The .deb on a fresh machine of this Debian (or Ubuntu) release, as a user installs it:
# a minimal system made by debootstrap (--variant=minbase, no Swift, no compiler),
# made once and kept in the cache, copied anew for each run; `apt-get install
# ./migrant-chat_*.deb` there fetches its Depends from the release's archive. Then the
# installed command runs with an empty environment, with /proc and without it (a
# chroot or a minimal container may have none: --version works, the rest says what to
# mount), and `apt-get remove` takes it away.
# Needs root with the right to chroot and mount (CI has both); elsewhere it says it
# did not run. MIGRANT_CHAT_DEB_MIRROR overrides the archive read from apt.
#   chroot.sh DIST_DIR
set -euo pipefail
dist=$1
fail() { echo "chroot check: $*"; exit 1; }
# The package of this version (given by make), not the first by name: after a version
# bump an older .deb may still be in the folder.
version=${2:?"usage: $0 DIST VERSION"}
arch=$(dpkg --print-architecture)
deb=$dist/migrant-chat_${version}_$arch.deb
[ -f "$deb" ] || { echo "chroot check: no $deb (run make dist)"; exit 1; }
if [ "$(id -u)" != 0 ] || ! chroot / true 2>/dev/null || ! unshare --mount true 2>/dev/null; then
  why="needs root allowed to chroot and mount"
  # Under CI (root, a fresh machine) it must run: not running is a failure there.
  [ "${CI:-}" != true ] || fail "CI=true, and the fresh-system tier cannot run: it $why"
  echo "!!!!! FRESH-SYSTEM TIER SKIPPED: it $why !!!!!"
  # make test names every skipped tier in its closing line.
  [ -z "${MIGRANT_CHAT_SKIPPED:-}" ] || echo "fresh system (.deb installed by apt): $why" >>"$MIGRANT_CHAT_SKIPPED"
  exit 0
fi
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || fail "/etc/os-release names no VERSION_CODENAME"
base=${MIGRANT_CHAT_CACHE:-${HOME:-/root}/.cache/migrant-chat}
cache=$base/chroot-$codename
mkdir -p "$base"
# One run at a time: two first runs would each make and move the same cache.
exec 9>"$base/chroot.lock"
flock 9

# The release's own archive, over http(s), as this machine's apt knows it: the entry
# whose release line says o=Debian (or Ubuntu), n=CODENAME, c=main.
mirror=${MIGRANT_CHAT_DEB_MIRROR:-$(apt-cache policy | awk -v codename="$codename" '
  /^ *[0-9]+ https?:\/\// { url = $2; next }
  /^ *release / {
    fields = "," $2 ","
    if (!found && url != "" && fields ~ /,o=(Debian|Ubuntu),/ && index(fields, ",n=" codename ",") &&
        index(fields, ",c=main,")) { print url; found = 1 }
    url = ""
  }')}
[ -n "$mirror" ] || fail "apt knows no http(s) archive of $codename/main (apt-get update, or set MIGRANT_CHAT_DEB_MIRROR)"

if [ ! -f "$cache/.complete" ]; then
  echo "== making a minimal $codename system with debootstrap (once, kept in $cache)"
  rm -rf --one-file-system "$cache" "$cache.partial"
  debootstrap --variant=minbase "$codename" "$cache.partial" "$mirror" >"$cache.log" 2>&1 \
    || fail "debootstrap from $mirror failed: $(tail -3 "$cache.log")"
  touch "$cache.partial/.complete" && mv "$cache.partial" "$cache"
fi

# Beside the cache, not in /tmp: a tmpfs there may be nodev, and the copy is 200 MB.
root=$(mktemp -d "$base/chroot-run.XXXXXX")
cleanup() {
  if mountpoint -q "$root/proc"; then umount "$root/proc"; fi
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$cache/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
# Runs a command in the root and keeps what it printed and its status: a crash (SIGILL
# is 132) then fails with its output, not silently under set -e.
run_in_root() {
  status=0
  output=$(in_root "$@" 2>&1) || status=$?
}

echo "== $(basename "$deb") on a fresh $codename ($mirror)"
swift=$(in_root sh -c 'command -v swift; command -v swiftc; ls -d /usr/lib/swift /opt/swift; true' 2>/dev/null)
[ -z "$swift" ] || fail "the fresh system has Swift: $swift"
proxies=()
for name in http_proxy https_proxy no_proxy; do
  if [ -n "${!name:-}" ]; then proxies+=("$name=${!name}"); fi
done
run_in_root "${proxies[@]}" DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq && \
  apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb")"
[ "$status" = 0 ] || fail "apt-get install of the .deb failed ($status): $(tail -8 <<<"$output")"
echo "  installed with:$(grep -o 'Setting up [^ ]*' <<<"$output" | sed 's/Setting up / /' | tr -d '\n')"

check_version() {
  run_in_root migrant-chat --version
  [ "$status" = 0 ] || fail "$1: --version ended with $status: $output"
  grep -q "^migrant-chat .* (commit " <<<"$output" || fail "$1: --version: $output"
  grep -q "^libcurl [0-9]" <<<"$output" || fail "$1: --version has no libcurl version: $output"
}
mount -t proc proc "$root/proc"
check_version "with /proc"
run_in_root HOME=/root migrant-chat --offline --lang uk <<<$'2\n1'
[ "$status" = 0 ] && grep -q "Медичне страхування" <<<"$output" \
  || fail "the offline chat in Ukrainian ($status): $output"
run_in_root HOME=/root migrant-chat contacts search "pojišťovna ostrava"
[ "$status" = 0 ] && grep -q "Ostrava" <<<"$output" || fail "contacts search ($status): $output"
run_in_root migrant-chat --lang xx </dev/null
[ "$status" = 2 ] && grep -q "'xx' is not valid" <<<"$output" \
  || fail "a wrong --lang was not refused ($status): $output"
echo "  --version, the offline chat in Ukrainian, contacts search, a refused option"
umount "$root/proc"
# Without /proc the Swift runtime's libdispatch stops a program at random (SIGILL, it
# watches its threads there): migrant-chat says so at start instead, in the user's
# language, and its arguments still arrive (the runtime finds them through /proc too).
check_version "without /proc"
run_in_root HOME=/root migrant-chat --offline --lang uk </dev/null
[ "$status" = 1 ] && grep -q "потрібна файлова система /proc" <<<"$output" \
  || fail "without /proc, --offline --lang uk ($status): $output"
run_in_root HOME=/root migrant-chat contacts search ostrava --lang ru </dev/null
[ "$status" = 1 ] && grep -q "нужна файловая система /proc" <<<"$output" \
  || fail "without /proc, contacts search --lang ru ($status): $output"
echo "  without /proc: --version works, the rest says to mount it (exit 1), in the user's language"

run_in_root DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq migrant-chat
[ "$status" = 0 ] || fail "apt-get remove failed: $output"
[ ! -e "$root/usr/bin/migrant-chat" ] || fail "apt-get remove left /usr/bin/migrant-chat"
echo "  apt-get remove: gone"
