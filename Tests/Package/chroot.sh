#!/usr/bin/env bash
# The .deb on a fresh machine of this Debian (or Ubuntu) release, as a user installs it:
# a minimal system made by debootstrap (--variant=minbase, no Swift, no compiler),
# made once and kept in the cache, copied anew for each run; `apt-get install
# ./migrant-chat_*.deb` there fetches its Depends from the release's archive. Then the
# installed command runs with an empty environment, with /proc and without it (a
# chroot or a minimal container may have none: --version works, the rest says what to
# mount), and `apt-get remove` takes it away. Needs root (debootstrap, chroot, mount).
#   chroot.sh DIST_DIR
set -euo pipefail
dist=$1
fail() { echo "chroot check: $*"; exit 1; }
if [ "$(id -u)" != 0 ]; then
  echo "== the .deb on a fresh system: not run, it needs root (debootstrap, chroot, mount)"
  exit 0
fi
deb=$(ls "$dist"/migrant-chat_*.deb | head -1)
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
cache=${MIGRANT_CHAT_CACHE:-$HOME/.cache/migrant-chat}/chroot-$codename
# The archive this machine installs from, for its release's main component.
mirror=$(apt-cache policy | awk -v suite="$codename/main" '$3 == suite {print $2; exit}')
[ -n "$mirror" ] || fail "no archive for $codename/main in apt-cache policy (run apt-get update)"

if [ ! -f "$cache/.complete" ]; then
  echo "== making a minimal $codename system with debootstrap (once, kept in $cache)"
  rm -rf "$cache" "$cache.partial" && mkdir -p "$(dirname "$cache")"
  debootstrap --variant=minbase "$codename" "$cache.partial" "$mirror" >"$cache.log" 2>&1 \
    || fail "debootstrap failed: $(tail -3 "$cache.log")"
  touch "$cache.partial/.complete" && mv "$cache.partial" "$cache"
fi

root=$(mktemp -d)
cleanup() {
  if mountpoint -q "$root/proc"; then umount "$root/proc"; fi
  rm -rf "$root"
}
trap cleanup EXIT
cp -a "$cache/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

echo "== $(basename "$deb") on a fresh $codename ($mirror)"
if in_root sh -c 'command -v swift swiftc clang' >/dev/null; then fail "the fresh system has Swift"; fi
in_root DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq && apt-get install -y -qq \
  --no-install-recommends /tmp/$(basename "$deb")" >"$root/install.log" 2>&1 \
  || fail "apt-get install failed: $(tail -5 "$root/install.log")"
grep -o 'Setting up [^ ]*' "$root/install.log" | sed 's/^/  /' | tr '\n' ' ' | fold -s -w 100
echo

check_version() {
  local version
  version=$(in_root migrant-chat --version </dev/null)
  grep -q "^migrant-chat .* (commit " <<<"$version" || fail "$1: --version: $version"
  grep -q "^libcurl [0-9]" <<<"$version" || fail "$1: --version has no libcurl version: $version"
}
mount -t proc proc "$root/proc"
check_version "with /proc"
answer=$(printf '2\n1\n' | in_root HOME=/root migrant-chat --offline --lang uk 2>&1)
grep -q "Медичне страхування" <<<"$answer" || fail "no Ukrainian offline answer: $answer"
answer=$(in_root HOME=/root migrant-chat contacts search "pojišťovna ostrava" 2>&1)
grep -q "Ostrava" <<<"$answer" || fail "contacts search found nothing: $answer"
answer=$(in_root migrant-chat --lang xx 2>&1 </dev/null || true)
grep -q "'xx' is not valid" <<<"$answer" || fail "a wrong --lang was not refused: $answer"
echo "  --version, the offline chat in Ukrainian, contacts search, a refused option"
umount "$root/proc"
# Without /proc the Swift runtime's libdispatch stops a program at random (SIGILL, it
# watches its threads there): migrant-chat says so at start instead, in the user's
# language, and its arguments still arrive (the runtime reads them from /proc too).
check_version "without /proc"
for run in "--offline --lang uk" "contacts search ostrava"; do
  status=0
  answer=$(in_root HOME=/root migrant-chat $run 2>&1 </dev/null) || status=$?
  [ "$status" = 1 ] || fail "without /proc, '$run' ended with $status: $answer"
  case $run in
    *uk*) grep -q "потрібна файлова система /proc" <<<"$answer" || fail "not in Ukrainian: $answer" ;;
    *) grep -q "migrant-chat needs /proc" <<<"$answer" || fail "no word of /proc: $answer" ;;
  esac
done
echo "  without /proc: --version works, the rest says to mount it (exit 1), in the user's language"

in_root DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq migrant-chat >/dev/null 2>&1 \
  || fail "apt-get remove failed"
[ ! -e "$root/usr/bin/migrant-chat" ] || fail "apt-get remove left /usr/bin/migrant-chat"
echo "  apt-get remove: gone"
