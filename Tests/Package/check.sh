#!/usr/bin/env bash
# The package tier of make test: what `make dist` and `make install` produce, checked
# as a user gets it. No container runtime here, so the .deb is unpacked with
# dpkg-deb -x and its binary run with an empty environment (no PATH, no HOME, no
# LANG, no Swift): what a fresh machine of the same Debian release has.
#   check.sh DIST_DIR
set -euo pipefail
# With pipefail, a reader that stops early (grep -q, head, awk's exit) can kill its
# writer with SIGPIPE and fail the pipeline, by the luck of the pipe's timing (CI
# stopped here with 141 at ldconfig -p | awk '{...; exit}'): readers here read it all,
# or the output is kept in a variable and searched there.
dist=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "package check: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The package of this version (given by make), not the first by name: after a version
# bump an older .deb may still be in the folder.
version=${2:?"usage: $0 DIST VERSION"}
arch=$(dpkg --print-architecture)
deb=$dist/migrant-chat_${version}_$arch.deb
[ -f "$deb" ] || { echo "package check: no $deb (run make dist)"; exit 1; }
tarball=$dist/migrant-chat-$version-linux-$arch.tar.gz
[ -f "$tarball" ] || fail "no $tarball (run make dist)"
echo "== the .deb: $(basename "$deb")"
dpkg-deb --info "$deb" | sed -n 's/^ \(Depends\|Version\|Architecture\):/  \1:/p'
contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/migrant-chat ./usr/share/man/man1/migrant-chat.1.gz \
  ./usr/share/bash-completion/completions/migrant-chat ./usr/share/zsh/vendor-completions/_migrant-chat \
  ./usr/share/fish/vendor_completions.d/migrant-chat.fish ./usr/share/doc/migrant-chat/copyright; do
  grep -q " $path\$" <<<"$contents" || fail "the .deb lacks $path"
done
# Depends: libcurl (opened on first use) and the package of every library the binary
# still loads (NEEDED; SQLite, readline and libstdc++ are linked in from their static
# archives where the build machine has them, #50).
needed=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/migrant-chat >"$work/needed-bin" \
  && readelf -d "$work/needed-bin" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || fail "readelf found no NEEDED library in the binary: the check sees nothing"
owner() { dpkg -S "$1" 2>/dev/null | awk -F: 'NR == 1 {print $1}'; }
depends=$(dpkg-deb --field "$deb" Depends)
for library in libcurl4 $(for lib in $needed; do
  path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && !found {print $NF; found = 1}')
  package=$(owner "$(readlink -f "$path")")
  [ -n "$package" ] || package=$(owner "$path")
  [ -n "$package" ] || fail "no package owns $lib ($path)"
  echo "$package"; done); do
  grep -q "$library (>= " <<<"$depends" || fail "Depends lacks $library"
done

dpkg-deb -x "$deb" "$work/root"
binary=$work/root/usr/bin/migrant-chat
# Nothing of the Swift toolchain: the runtime and Foundation are inside.
if ldd "$binary" | grep -E 'libswift|libFoundation|not found'; then fail "links the Swift toolchain"; fi
version=$(env -i "$binary" --version)
echo "$version" | sed 's/^/  /'
grep -q "^migrant-chat .* (commit [0-9a-f]\{7,\})$" <<<"$version" || fail "--version has no commit"
grep -q "libcurl .*, GNU readline .*, SQLite " <<<"$version" || fail "--version lacks the libraries"
answer=$(printf '1\n' | env -i HOME="$work/home" "$binary" --offline 2>&1)
grep -q "Residence permit" <<<"$answer" || fail "the installed binary did not answer offline: $answer"
grep -q "Employee card" <<<"$answer" || fail "the first button did not open its topic: $answer"
[ -f "$work/home/.local/state/migrant-chat/state.json" ] || fail "no state written under HOME"
echo "  --offline with an empty environment: answered, state under \$HOME"

# libcurl is opened on first use (Sources/CCurlLoader): not a dependency of the binary,
# not loaded by the offline chat, loaded and working for a chat with a server.
dynamic=$(readelf -d "$binary")
if grep -q 'NEEDED.*libcurl' <<<"$dynamic"; then fail "the binary links libcurl at start"; fi
if grep -q 'RUNPATH\|RPATH' <<<"$dynamic"; then fail "the binary looks for libraries beside itself"; fi
# A library next to the binary is not loaded in place of the system's.
cp "$binary" "$work/beside" && echo "not a library" >"$work/libcurl.so.4"
answer=$(echo hello | env -i HOME="$work/home" "$work/beside" --server http://127.0.0.1:9 2>&1 || true)
if grep -q "file too short" <<<"$answer"; then fail "a libcurl.so.4 beside the binary was loaded: $answer"; fi
# (A load shows in LD_DEBUG=files as "file=libcurl.so.4 ... generating link map".)
loaded=$(printf '1\n' | env -i HOME="$work/home" LD_DEBUG=files "$binary" --offline 2>&1 >/dev/null \
  | grep -c 'file=libcurl.*generating link map' || true)
[ "$loaded" = 0 ] || fail "the offline chat loaded libcurl"
# The positive control: the same count for --version, which loads it, is not 0.
loaded=$(env -i LD_DEBUG=files "$binary" --version 2>&1 >/dev/null \
  | grep -c 'file=libcurl.*generating link map' || true)
[ "$loaded" != 0 ] || fail "LD_DEBUG=files shows no libcurl load for --version: the offline check sees nothing"
# --version loads libcurl and says what it says of itself: the same as a preloaded one.
library=$(/sbin/ldconfig -p | awk '$1 == "libcurl.so.4" && /x86-64|AArch64/ && !found {print $NF; found = 1}')
[ -n "$library" ] || fail "ldconfig -p names no libcurl.so.4"
asked=$(env -i LD_PRELOAD="$library" "$binary" --version | sed -n 's/^libcurl \([^,]*\),.*/\1/p')
read=$(env -i "$binary" --version | sed -n 's/^libcurl \([^,]*\),.*/\1/p')
[ -n "$read" ] && [ "$read" = "$asked" ] || fail "--version said libcurl '$read', libcurl says '$asked'"
echo "  --version: libcurl $read, as $library says"
# Wherever the dynamic loader finds the library, --version asks the one it found:
# a stand-in libcurl.so.4 that says 9.9.9, found through LD_LIBRARY_PATH, a RUNPATH
# or an RPATH that patchelf gave a copy (it moves the dynamic section), ld.so's
# --library-path.
mkdir -p "$work/fake"
printf '%s\n' 'struct info { int age; const char *version; };' \
  'static struct info fake = {10, "9.9.9"};' \
  'struct info *curl_version_info(int stamp) { (void)stamp; return &fake; }' >"$work/fake/fake.c"
cc -shared -fPIC -o "$work/fake/libcurl.so.4" "$work/fake/fake.c"
cp "$binary" "$work/runpath" && patchelf --set-rpath "$work/fake" "$work/runpath"
cp "$binary" "$work/rpath" && patchelf --force-rpath --set-rpath "$work/fake" "$work/rpath"
loader=$(readelf -l "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
for run in "env -i LD_LIBRARY_PATH=$work/fake $binary" "env -i $work/runpath" "env -i $work/rpath" \
  "env -i $loader --library-path $work/fake $binary"; do
  grep -q "^libcurl 9.9.9," <<<"$($run --version)" || fail "$run --version: $($run --version)"
done
echo "  --version asks the libcurl that LD_LIBRARY_PATH, a RUNPATH, an RPATH or ld.so picks"
env -i HOME="$work/home" "$binary" serve --port 0 >/dev/null 2>"$work/serve.log" &
serving=$!
trap 'kill "$serving" 2>/dev/null || true; rm -rf "$work"' EXIT
# Its line on stderr is the sign it is up; bounded only to end a run that would hang.
for _ in $(seq 1200); do grep -q 'http://127.0.0.1:[0-9]*' "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 || true)
[ -n "$url" ] || fail "the installed binary's serve did not start: $(cat "$work/serve.log")"
answer=$(printf 'health insurance\n' | env -i HOME="$work/home" "$binary" --server "$url" 2>&1 || true)
kill "$serving"; wait "$serving" || true
grep -q "Health insurance: choose a guide" <<<"$answer" || fail "the installed binary did not chat with serve at '$url': $answer"
echo "  libcurl: not linked, not loaded offline; opened on first use, chatted with serve at $url"
# A libcurl that cannot be loaded: the offline chat works, a chat with a server says why.
mkdir -p "$work/broken" && echo "not a library" >"$work/broken/libcurl.so.4"
answer=$(printf '1\n' | env -i HOME="$work/home" LD_LIBRARY_PATH="$work/broken" "$binary" --offline 2>&1 || true)
grep -q "Employee card" <<<"$answer" || fail "without libcurl the offline chat did not answer: $answer"
# The second message comes after the thread that tried the load has ended (Dispatch
# lets idle workers go after a few seconds): the reason must still read right.
answer=$( (echo hello; sleep 7; echo again) | env -i HOME="$work/home" LD_LIBRARY_PATH="$work/broken" \
  "$binary" --server http://127.0.0.1:9 --offline-fallback never 2>&1 || true)
named=$(tr '\n' ' ' <<<"$answer" | tr -s ' ' \
  | grep -o "could not be loaded ([^ ]*/libcurl.so.4: file too short). Install or repair it (Debian, Ubuntu: sudo apt install --reinstall libcurl4)" \
  | wc -l)
[ "$named" -ge 3 ] || fail "a broken libcurl was not named at every turn: $answer"
answer=$(echo hello | env -i HOME="$work/home" LD_LIBRARY_PATH="$work/broken" \
  "$binary" --server http://127.0.0.1:9 --lang uk 2>&1 || true)
grep -q "не вдалося завантажити libcurl" <<<"$(tr '\n' ' ' <<<"$answer" | tr -s ' ')" \
  || fail "a broken libcurl was not named in Ukrainian: $answer"
version=$(env -i LD_LIBRARY_PATH="$work/broken" "$binary" --version)
grep -q "libcurl unavailable" <<<"$version" || fail "--version without libcurl: $version"
echo "  a libcurl that cannot be loaded: offline works, a server chat and --version say so"

echo "== completions and the man page"
bash -n "$work/root/usr/share/bash-completion/completions/migrant-chat" || fail "bash completion"
zsh -n "$work/root/usr/share/zsh/vendor-completions/_migrant-chat" || fail "zsh completion"
fish -n "$work/root/usr/share/fish/vendor_completions.d/migrant-chat.fish" || fail "fish completion"
man=$(zcat "$work/root/usr/share/man/man1/migrant-chat.1.gz")
for section in NAME SYNOPSIS DESCRIPTION ENVIRONMENT FILES "EXIT STATUS"; do
  grep -q "^\.Sh $section" <<<"$man" || fail "the man page lacks $section"
done
# Each subcommand has its own entry (a bare "chat" would match inside "migrant-chat").
for command in chat contacts serve replay explore todo report; do
  grep -q "^\.It Em $command\$" <<<"$man" || fail "the man page has no entry for $command"
done
# groff (groff-base, installed by make test) reads it without a warning, for the terminal
# as man renders it in a UTF-8 locale (-Tutf8: the PostScript default has no Cyrillic
# glyphs for the help's examples); no groff is a failure.
command -v groff >/dev/null || fail "groff is missing (apt-get install groff-base)"
page=$(zcat "$work/root/usr/share/man/man1/migrant-chat.1.gz")
warnings=$(groff -mandoc -Tutf8 -ww -z <<<"$page" 2>&1 || true)
[ -z "$warnings" ] || fail "groff: $warnings"
# Every letter of the help is kept (the generator dropped what was not ASCII: "Nová Ves"
# became "Nov Ves"): the English help's own examples are in the page as written.
rendered=$(groff -mandoc -Tutf8 <<<"$page" 2>/dev/null | sed 's/.\x08//g')
for word in "Nová Ves" "Оломоуц"; do
  grep -q "$word" <<<"$rendered" || fail "the man page lost '$word' (Tools/generate-man.sh)"
done
# The installed completions, run as bash and fish run them on <TAB>: the chat's
# options after `migrant-chat` (the chat is the default command), subcommands,
# file names. A clean environment: BASH_ENV, POSIXLY_CORRECT or FIGNORE would
# change what bash does.
mkdir -p "$work/files" && touch "$work/files/transcript.yml" "$work/files/out.jsonl"
offered_by() {
  local shell=$1 line=$2
  cd "$work/files" || return
  case "$shell" in
  bash)
    env -i PATH="$PATH" bash --norc --noprofile -c '
      source "$1"
      COMP_LINE=$2
      read -ra COMP_WORDS <<<"$COMP_LINE"
      [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      COMP_POINT=${#COMP_LINE}
      COMPREPLY=()
      _migrant-chat migrant-chat "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf "%s\n" "${COMPREPLY[@]}"' _ "$work/root/usr/share/bash-completion/completions/migrant-chat" "$line"
    ;;
  fish)
    env -i PATH="$PATH" HOME="$work/home" fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
      "$work/root/usr/share/fish/vendor_completions.d/migrant-chat.fish" "$line" | cut -f1
    ;;
  esac
}
completes() {
  local expected=$1 line=$2 shell offered
  for shell in bash fish; do
    offered=$(offered_by "$shell" "$line" | sort | tr '\n' ' ')
    [ "$offered" = "$expected " ] || fail "$shell completion of '$line' offered '$offered', not '$expected'"
  done
}
completes "en ru uk" "migrant-chat --lang "
completes "--color" "migrant-chat --col"
completes "--json" "migrant-chat --offline --js"
completes "contacts" "migrant-chat con"
completes "en ru uk" "migrant-chat chat --lang "
completes "transcript.yml" "migrant-chat replay tr"
completes "out.jsonl" "migrant-chat --record ou"
echo "  bash and fish complete options, values, subcommands and files;"
echo "  the man page has every subcommand, ENVIRONMENT and FILES"

echo "== the tarball: $(basename "$tarball")"
listing=$(tar -tzf "$tarball")
for file in bin/migrant-chat LICENSE README.md man/migrant-chat.1 completions/_migrant-chat; do
  grep -q "/$file\$" <<<"$listing" || fail "the tarball lacks $file"
done

echo "== make install and make uninstall into a temporary root"
# Nothing built: install only copies, so it says to run make first and writes nothing.
if unbuilt=$(make -C "$root" --no-print-directory -s install FILES="$work/unbuilt" DESTDIR="$work/none" 2>&1); then
  fail "make install with nothing built succeeded"
fi
grep -q "Run \`make\` first" <<<"$unbuilt" || fail "make install with nothing built said: $unbuilt"
[ ! -e "$work/none" ] || fail "make install with nothing built wrote $(find "$work/none")"
make -C "$root" --no-print-directory -s install DESTDIR="$work/inst" PREFIX=/usr/local >/dev/null
for path in bin/migrant-chat share/man/man1/migrant-chat.1 share/bash-completion/completions/migrant-chat \
  share/zsh/site-functions/_migrant-chat share/fish/vendor_completions.d/migrant-chat.fish; do
  [ -f "$work/inst/usr/local/$path" ] || fail "install did not write $path"
done
env -i "$work/inst/usr/local/bin/migrant-chat" --version >/dev/null
make -C "$root" --no-print-directory -s uninstall DESTDIR="$work/inst" PREFIX=/usr/local
left=$(find "$work/inst" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
echo "  installed, ran, uninstalled: nothing left"
echo "package: $(du -h "$deb" | cut -f1) .deb, binary $(du -h "$binary" | cut -f1)"
