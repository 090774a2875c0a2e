#!/bin/sh
# The man page, written by swift-argument-parser's generate-manual from the binary's
# help, with every letter kept: the generator drops what is not ASCII (Nová Ves became
# "Nov Ves", 'через 3 дні' became "  3 "). So it reads the help through a wrapper that
# writes each such character as a placeholder, and the placeholders then become
# groff's \[uXXXX] in the page.
#
#   generate-man.sh BINARY GENERATOR DATE OUTPUT_DIRECTORY
set -eu
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
generator=$2 date=$3 output=$4
wrapper=$(mktemp -d)
trap 'rm -rf "$wrapper"' EXIT
cat > "$wrapper/migrant-chat" <<WRAPPER
#!/bin/sh
"$binary" "\$@" | python3 -c 'import sys; sys.stdout.write("".join(c if ord(c) < 128 else "QQu%04XQQ" % ord(c) for c in sys.stdin.read()))'
WRAPPER
chmod +x "$wrapper/migrant-chat"
LANG=C.UTF-8 "$generator" "$wrapper/migrant-chat" --date "$date" --output-directory "$output"
sed -i 's/QQu\([0-9A-F]\{4,6\}\)QQ/\\[u\1]/g' "$output/migrant-chat.1"
if grep -q 'QQu' "$output/migrant-chat.1"; then
  echo "generate-man.sh: a placeholder was left in the page" >&2
  exit 1
fi
