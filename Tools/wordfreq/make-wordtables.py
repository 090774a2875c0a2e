#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make the word-frequency tables the chat reads typed lines with (issue #48).

This is a one-off data-preparation script, not part of the build. It writes
one table per language into Sources/CWordTables/tables/ (or --out):

  en.words  English            cs.words  Czech, diacritics folded (kód -> kod)
  ru.words  Russian            uk.words  Ukrainian

from the word lists of PyPI's `wordfreq` 3.1.1 (its `large_*` lists), the
package file itself, exactly as downloaded, passed with --wheel:

  pip download --no-deps wordfreq==3.1.1
  python3 Tools/wordfreq/make-wordtables.py --wheel wordfreq-3.1.1-py3-none-any.whl

It uses the Python 3 standard library only (a small msgpack reader is below).

The format (read by MigrantChatCore's WordTable; all integers little-endian):

  Words are bytes: ASCII letters, ' and - as themselves; Cyrillic а..я as
  0x80..0x9F, ё є і ї ґ as 0xA0..0xA4. Entries are sorted by those bytes and
  front-coded in blocks of 16: an entry is [shared] [suffix...] [zipf], where
  `shared` (< 0x20) is how many leading bytes it shares with the entry before
  (0 at a block's start), the suffix bytes are all >= 0x27, and `zipf` (< 0x20)
  is round((Zipf frequency - 1) * 4): Zipf 3 is once per million words.
  After the entries: the offset of each block (u32), the number of blocks
  (u32), the number of entries (u32), and the magic "MCW1".
"""

import argparse
import gzip
import hashlib
import io
import os
import re
import struct
import sys
import unicodedata
import zipfile

WHEEL_SHA256 = "4b1c6ecffc6198be3396d5cf871c4423ca71c907c231348d352dd54d62b97473"

# The lowest Zipf frequency kept per language: about 2 is a word a person meets
# once in a few years of reading. The tables' sizes are printed at the end.
CUTOFFS = {"en": 2.0, "cs": 2.0, "ru": 2.0, "uk": 1.8}

WORD_PATTERNS = {
    "en": re.compile(r"^[a-z]+(?:['-][a-z]+)*$"),
    "cs": re.compile(r"^[a-z]+(?:-[a-z]+)*$"),
    "ru": re.compile(r"^[а-яё]+(?:-[а-яё]+)*$"),
    "uk": re.compile(r"^[а-щьюяєіїґ]+(?:['-][а-щьюяєіїґ]+)*$"),
}

BLOCK = 16
EXTRA = {"ё": 0xA0, "є": 0xA1, "і": 0xA2, "ї": 0xA3, "ґ": 0xA4}


def encode(word):
    out = bytearray()
    for ch in word:
        code = ord(ch)
        if ch in "'-" or "a" <= ch <= "z":
            out.append(code)
        elif 0x430 <= code <= 0x44F:
            out.append(0x80 + code - 0x430)
        elif ch in EXTRA:
            out.append(EXTRA[ch])
        else:
            raise ValueError(f"not encodable: {word!r}")
    return bytes(out)


def fold(word):
    """Czech without diacritics, as people type it on a keyboard without them."""
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


class MsgPack:
    """The part of msgpack wordfreq's lists use: arrays, maps, strings, ints."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def read(self):
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if 0x80 <= b <= 0x8F:
            return self.read_map(b & 0x0F)
        if 0x90 <= b <= 0x9F:
            return [self.read() for _ in range(b & 0x0F)]
        if 0xA0 <= b <= 0xBF:
            return self.take(b & 0x1F).decode("utf-8")
        if b == 0xC0:
            return None
        if b in (0xC2, 0xC3):
            return b == 0xC3
        if b == 0xD9:
            return self.take(self.take(1)[0]).decode("utf-8")
        if b == 0xDA:
            return self.take(struct.unpack(">H", self.take(2))[0]).decode("utf-8")
        if b == 0xDB:
            return self.take(struct.unpack(">I", self.take(4))[0]).decode("utf-8")
        if b == 0xDC:
            return [self.read() for _ in range(struct.unpack(">H", self.take(2))[0])]
        if b == 0xDD:
            return [self.read() for _ in range(struct.unpack(">I", self.take(4))[0])]
        if b == 0xDE:
            return self.read_map(struct.unpack(">H", self.take(2))[0])
        if b == 0xCC:
            return self.take(1)[0]
        if b == 0xCD:
            return struct.unpack(">H", self.take(2))[0]
        if b == 0xCE:
            return struct.unpack(">I", self.take(4))[0]
        if b >= 0xE0:
            return b - 0x100
        raise ValueError(f"msgpack type 0x{b:02x} not handled")

    def read_map(self, count):
        return {self.read(): self.read() for _ in range(count)}


def words_of(wheel, language):
    """{word: Zipf} of one language, each word at its highest frequency."""
    with zipfile.ZipFile(wheel) as archive:
        raw = gzip.decompress(archive.read(f"wordfreq/data/large_{language}.msgpack.gz"))
    header, *bins = MsgPack(raw).read()
    assert header.get("format") == "cB", header
    words = {}
    for index, bin_words in enumerate(bins):
        zipf = 9 - index / 100  # bin i holds the words of frequency 10^(-i/100)
        if zipf < CUTOFFS[language]:
            break
        for word in bin_words:
            word = word.replace("’", "'").replace("ʼ", "'")
            if language == "cs":
                word = fold(word)
            if len(word) > 40 or not WORD_PATTERNS[language].match(word):
                continue
            words.setdefault(word, zipf)
    return words


def table(words):
    entries = sorted((encode(w), z) for w, z in words.items())
    out = bytearray()
    offsets = []
    previous = b""
    for index, (key, zipf) in enumerate(entries):
        if index % BLOCK == 0:
            offsets.append(len(out))
            shared = 0
        else:
            shared = 0
            limit = min(len(key), len(previous), 0x1F)
            while shared < limit and key[shared] == previous[shared]:
                shared += 1
        code = max(0, min(31, round((zipf - 1) * 4)))
        out.append(shared)
        out += key[shared:]
        out.append(code)
        previous = key
    for offset in offsets:
        out += struct.pack("<I", offset)
    out += struct.pack("<II", len(offsets), len(entries))
    out += b"MCW1"
    return bytes(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", required=True)
    parser.add_argument(
        "--out",
        default=os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "CWordTables", "tables"),
    )
    parser.add_argument("--any-version", action="store_true")
    args = parser.parse_args()
    digest = hashlib.sha256(open(args.wheel, "rb").read()).hexdigest()
    if digest != WHEEL_SHA256:
        print(f"{args.wheel}: sha256 {digest}, expected {WHEEL_SHA256}", file=sys.stderr)
        if not args.any_version:
            sys.exit(1)
    os.makedirs(args.out, exist_ok=True)
    total = 0
    found = {}
    for language in ("en", "cs", "ru", "uk"):
        words = words_of(args.wheel, language)
        data = table(words)
        with open(os.path.join(args.out, f"{language}.words"), "wb") as f:
            f.write(data)
        total += len(data)
        found[language] = words
        print(f"{language}.words: {len(words):,} words from Zipf {CUTOFFS[language]}, {len(data):,} bytes")
    print(f"all four: {total:,} bytes")
    # Quality checks: words the chat must know in each language.
    for language, must in {
        "en": ["residence", "permit", "insurance", "hello"],
        "cs": ["prodlouzeni", "pojisteni", "urad", "prace", "na", "kde"],
        "ru": ["продление", "визы", "страховка", "привет", "где"],
        "uk": ["продовження", "посвідки", "проживання", "страховка", "дозвіл", "сім'я"],
    }.items():
        missing = [w for w in must if w not in found[language]]
        assert not missing, f"{language}: missing {missing}"


if __name__ == "__main__":
    main()
