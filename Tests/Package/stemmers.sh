#!/usr/bin/env bash
# The release build's libstemmer.a (make static-libs: Snowball's archive with
# Tools/stemmer/stemmers.c's table of two languages in place of libstemmer.o's of 29)
# stems as the system's libstemmer does: every word of the English and Russian
# messages (Locales/), through libstemmer's API, linked with each, compared. And the
# trimmed archive links no other language.
#   stemmers.sh STATIC_LIBS_DIR
set -euo pipefail
libs=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "stemmers: $*"; exit 1; }
[ -f "$libs/libstemmer.a" ] || { echo "stemmers: no static libstemmer.a here: the shared library is used as it is"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/stem.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <libstemmer.h>
/* stem LANGUAGE < words: each line's stem, or "(none)" when there is no stemmer. */
int main(int argc, char **argv) {
  struct sb_stemmer *stemmer = sb_stemmer_new(argv[1], "UTF_8");
  if (stemmer == NULL) { puts("(none)"); return 0; }
  char line[256];
  while (fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\n")] = 0;
    const sb_symbol *stem = sb_stemmer_stem(stemmer, (const sb_symbol *)line, (int)strlen(line));
    printf("%s %.*s\n", line, sb_stemmer_length(stemmer), stem == NULL ? "(null)" : (const char *)stem);
  }
  sb_stemmer_delete(stemmer);
  return 0;
}
C
cc -O2 -o "$work/trimmed" "$work/stem.c" "$libs/libstemmer.a"
cc -O2 -o "$work/system" "$work/stem.c" -lstemmer
# What links: the two languages, not the others (French's stemmer is one of 27).
symbols=$(nm "$work/trimmed")
grep -q "english_UTF_8_stem" <<<"$symbols" && grep -q "russian_UTF_8_stem" <<<"$symbols" \
  || fail "the trimmed archive did not link English and Russian"
if grep -q "french_UTF_8_stem" <<<"$symbols"; then fail "the trimmed archive still links French"; fi
words=0
for language in english russian; do
  file=$root/Locales/${language:0:2}.properties
  python3 -c 'import re, sys
words = {w.lower() for line in open(sys.argv[1], encoding="utf-8")
         for w in re.findall(r"[^\W\d_]{2,}", line.partition("=")[2])}
print("\n".join(sorted(words)))' "$file" >"$work/words"
  words=$((words + $(wc -l <"$work/words")))
  "$work/trimmed" $language <"$work/words" >"$work/trimmed.out"
  "$work/system" $language <"$work/words" >"$work/system.out"
  cmp -s "$work/trimmed.out" "$work/system.out" \
    || fail "$language stems differ: $(diff "$work/system.out" "$work/trimmed.out" | awk 'NR <= 6')"
  stemmed=$(awk '$1 != $2' "$work/trimmed.out" | wc -l)
  [ "$stemmed" -gt 100 ] || fail "$language: only $stemmed words changed by the stemmer: the check sees nothing"
done
# Unknown names and encodings: no stemmer, as libstemmer says.
[ "$("$work/trimmed" french </dev/null)" = "(none)" ] || fail "french gave a stemmer"
echo "  Snowball: English and Russian linked alone, $words words stemmed as the system's libstemmer does"
