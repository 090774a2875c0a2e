#!/usr/bin/env bash
# make dist: a .deb and a tarball from the files `make dist-files` made.
#   make-dist.sh VERSION COMMIT FILES_DIR DIST_DIR
set -euo pipefail
version=$1 commit=$2 files=$3 dist=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
arch=$(dpkg --print-architecture)

# Depends: the package of every library the binary links (NEEDED) or opens on first
# use (libcurl, see Sources/CCurlLoader), at the version installed here or newer, so
# the .deb installs on this Debian release and later.
depends=""
for lib in $(readelf -d "$files/migrant-chat" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p') libcurl.so.4; do
  # Whole outputs read (no early exit): with pipefail a closed pipe would fail the build.
  path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && !found {print $NF; found = 1}')
  real=$(readlink -f "$path")
  package=$(dpkg -S "$real" 2>/dev/null | awk -F: 'NR == 1 {print $1}') || true
  [ -n "$package" ] || package=$(dpkg -S "$path" 2>/dev/null | awk -F: 'NR == 1 {print $1}') || true
  [ -n "$package" ] || { echo "no package owns $lib ($path)"; exit 1; }
  installed=$(dpkg-query -W -f='${Version}' "$package")
  # The epoch stays (zlib1g is 1:1.2.13...): without it ">= 1.2.13" holds for any zlib1g.
  epoch=""
  case $installed in *:*) epoch=${installed%%:*}: ;; esac
  upstream=${installed#*:}
  upstream=${upstream%%-*}
  upstream=${upstream%%+*}
  entry="$package (>= $epoch$upstream)"
  case ", $depends, " in *", $entry, "*) ;; *) depends=${depends:+$depends, }$entry ;; esac
done

stage=$dist/deb/migrant-chat_${version}_$arch
rm -rf "$dist/deb" && mkdir -p "$stage/DEBIAN"
install -Dm755 "$files/migrant-chat" "$stage/usr/bin/migrant-chat"
install -Dm644 "$files/completions/migrant-chat.bash" "$stage/usr/share/bash-completion/completions/migrant-chat"
install -Dm644 "$files/completions/_migrant-chat" "$stage/usr/share/zsh/vendor-completions/_migrant-chat"
install -Dm644 "$files/completions/migrant-chat.fish" "$stage/usr/share/fish/vendor_completions.d/migrant-chat.fish"
install -Dm644 "$files/man/migrant-chat.1" "$stage/usr/share/man/man1/migrant-chat.1"
gzip -9n "$stage/usr/share/man/man1/migrant-chat.1"
install -Dm644 "$root/LICENSE" "$stage/usr/share/doc/migrant-chat/copyright"
install -Dm644 "$root/README.md" "$stage/usr/share/doc/migrant-chat/README.md"
for guide in "$root"/docs/*.md; do
  [ -e "$guide" ] && install -Dm644 "$guide" "$stage/usr/share/doc/migrant-chat/$(basename "$guide")"
done
size=$(du -sk "$stage/usr" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: migrant-chat
Version: $version
Architecture: $arch
Maintainer: migrant-chat developers <migrant-chat@localhost>
Depends: $depends
Section: net
Priority: optional
Installed-Size: $size
Description: terminal client for migrant-assistance chatbots
 Chats with Rasa bots over the REST channel in English, Russian and Ukrainian,
 with contact cards from a local directory, an offline assistant, a to-do list,
 transcripts to replay against any bot, and a crawler for bot teams.
 Built from commit $commit.
CONTROL
deb=$dist/migrant-chat_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null

name=migrant-chat-$version-linux-$arch
rm -rf "${dist:?}/$name" && mkdir -p "$dist/$name/bin"
cp "$files/migrant-chat" "$dist/$name/bin/"
cp -r "$files/completions" "$files/man" "$dist/$name/"
cp "$root/LICENSE" "$root/README.md" "$dist/$name/"
[ -d "$root/docs" ] && mkdir -p "$dist/$name/docs" && cp "$root"/docs/*.md "$dist/$name/docs/" 2>/dev/null || true
tar -C "$dist" -czf "$dist/$name.tar.gz" --owner=0 --group=0 "$name"
rm -rf "${dist:?}/$name"
echo "$deb ($(du -h "$deb" | cut -f1)), Depends: $depends"
echo "$dist/$name.tar.gz ($(du -h "$dist/$name.tar.gz" | cut -f1))"
