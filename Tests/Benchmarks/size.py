#!/usr/bin/env python3
"""What each part of the migrant-chat binary costs, from its symbol table.

Usage: size.py BINARY (unstripped). Prints the file size, the stripped size, the
sections that make it, and the symbols' bytes by owner (ICU's data, Foundation,
the Swift runtime and standard library, each package, our own modules).
"""
import os
import subprocess
import sys
import tempfile

OWNERS = [
    ("ICU data (icudt*_dat)", lambda n: n.startswith("icudt")),
    ("ICU code", lambda n: n.startswith(("icu_", "u_", "ucol_", "ubrk_", "utrans_", "uregex_", "_ZN6icu_", "_ZNK6icu_"))),
    ("Foundation", lambda n: n.startswith(("$s10Foundation", "$s20FoundationEssentials", "$s26FoundationInternationalization", "$s15_FoundationCShims", "CF", "__CF", "_CF", "$s21_FoundationCollections"))),
    ("GRDB", lambda n: n.startswith("$s4GRDB")),
    ("swift-argument-parser", lambda n: n.startswith(("$s14ArgumentParser", "$s21ArgumentParserToolInfo"))),
    ("Hummingbird and SwiftNIO", lambda n: n.startswith((
        "$s11Hummingbird", "$s15HummingbirdCore", "$s7NIOCore", "$s8NIOPosix", "$s9NIOHTTP1",
        "$s12NIOHTTPTypes", "$s16ServiceLifecycle", "$s7Logging", "$s9HTTPTypes", "$s7Tracing",
        "$s15Instrumentation", "$s20ServiceContextModule", "$s7Metrics", "$s10CoreMetrics",
        "$s15AsyncAlgorithms", "$s12NIOConcurrencyHelpers", "$s13NIOExtras", "$s15_NIODataStructures",
        "$s9_NIOBase64", "$s15NIOEmbedded", "$s12DequeModule", "$s13_NIOFileSystem", "c_nio_", "llhttp"))),
    ("Yams and libyaml", lambda n: n.startswith(("$s4Yams", "yaml_"))),
    ("hdrhistogram", lambda n: n.startswith("$s9Histogram")),
    ("MigrantChatCore", lambda n: n.startswith("$s15MigrantChatCore")),
    ("MigrantChatIO", lambda n: n.startswith("$s13MigrantChatIO")),
    ("migrant-chat (commands)", lambda n: n.startswith("$s12migrant_chat")),
    ("Swift runtime, stdlib, Dispatch", lambda n: n.startswith(("$s", "swift_", "_swift", "_ZN5swift", "_ZL", "dispatch_", "_dispatch"))),
]


def owner(name):
    for label, test in OWNERS:
        if test(name):
            return label
    return "other (C, C++, unnamed)"


def main():
    binary = sys.argv[1]
    total = os.path.getsize(binary)
    with tempfile.TemporaryDirectory() as work:
        stripped = os.path.join(work, "stripped")
        subprocess.run(["strip", "-o", stripped, binary], check=True)
        stripped_size = os.path.getsize(stripped)
    print(f"file {total / 1048576:.1f} MB, stripped {stripped_size / 1048576:.1f} MB")
    sections = {}
    for line in subprocess.run(["size", "-A", binary], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("."):
            sections[parts[0]] = int(parts[1])
    debug = sum(v for k, v in sections.items() if k.startswith(".debug"))
    for name in (".rodata", ".text", ".eh_frame", ".data.rel.ro", ".rela.dyn", ".data"):
        if name in sections:
            print(f"  section {name:<14} {sections[name] / 1048576:6.1f} MB")
    print(f"  section .debug_* (all)    {debug / 1048576:6.1f} MB (gone when stripped)")
    sums = {}
    for line in subprocess.run(["nm", "-S", "--size-sort", binary], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        size = int(parts[1], 16)
        label = owner(parts[3])
        sums[label] = sums.get(label, 0) + size
    for label, size in sorted(sums.items(), key=lambda item: -item[1]):
        print(f"  symbols of {label:<34} {size / 1048576:6.1f} MB")


if __name__ == "__main__":
    main()
