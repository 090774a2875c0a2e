#!/usr/bin/env python3
"""Compiles Locales/*.properties into Swift (make locales, #50).

    compile.py [--check]

Writes Sources/MigrantChatCore/Localization/CompiledTables.swift: for each language, a
function from MessageKey to its text, as string literals in a switch. The program then
parses no table at start (parsing English was 3.5 million instructions, a seventh of
the first offline answer; Russian and Ukrainian are longer). The tables are read as
LocaleTable reads them (trimmed, quotes kept around spaces, \\n \\t \\\\ \\" escapes, key[one]
plural forms); LocaleTableTests checks the compiled texts against LocaleTable's parse
of the embedded files, key by key, so an edit of a .properties file without running
this fails the tests. --check: exit 1 if the file is not what this would write.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LANGUAGES = ["en", "ru", "uk"]
OUTPUT = os.path.join(ROOT, "Sources/MigrantChatCore/Localization/CompiledTables.swift")


def cases():
    """MessageKey's raw values to its case names."""
    with open(os.path.join(ROOT, "Sources/MigrantChatCore/Localization/MessageKey.swift"),
              encoding="utf-8") as source:
        found = re.findall(r'^\s*case (\w+) = "([^"]+)"', source.read(), re.M)
    return {raw: name for name, raw in found}


def unescape(text, path, number):
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1]
    out, escaping = [], False
    for char in text:
        if escaping:
            mapped = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}.get(char)
            if mapped is None:
                sys.exit(f"{path}:{number}: unknown escape '\\{char}'")
            out.append(mapped)
            escaping = False
        elif char == "\\":
            escaping = True
        else:
            out.append(char)
    if escaping:
        sys.exit(f"{path}:{number}: a line cannot end with '\\'")
    return "".join(out)


def parse(path):
    entries, plurals = {}, {}
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table.read().split("\n"), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                sys.exit(f"{path}:{number}: expected 'key = text'")
            key, value = line.split("=", 1)
            key, value = key.strip(), unescape(value.strip(), path, number)
            plural = re.fullmatch(r"([^\[]*)\[(\w+)\]", key)
            if plural:
                plurals.setdefault(plural.group(1), {})[plural.group(2)] = value
            else:
                entries[key] = value
    return entries, plurals


def literal(text):
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            out.append('\\"')
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F or 0x2028 <= ord(char) <= 0x2029:
            out.append("\\u{%x}" % ord(char))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def compile_tables():
    names = cases()
    lines = [
        "// Generated from Locales/*.properties by Tools/locales/compile.py (make locales):",
        "// do not edit. LocaleTableTests checks every text against the tables as parsed.",
        "// swift-format-ignore-file",
        "",
        "extension Localizer {",
    ]
    for language in LANGUAGES:
        path = os.path.join(ROOT, "Locales", language + ".properties")
        entries, plurals = parse(path)
        for key in list(entries) + list(plurals):
            if key not in names:
                sys.exit(f"{path}: '{key}' is not a MessageKey")
        lines += [
            f"  /// `Locales/{language}.properties`: the text of a key that is not plural.",
            f"  static func compiled{language.capitalize()}(_ key: MessageKey) -> String? {{",
            "    switch key {",
        ]
        for key, value in entries.items():
            lines.append(f"    case .{names[key]}: {literal(value)}")
        lines += ["    default: nil", "    }", "  }", ""]
        lines += [
            f"  /// `Locales/{language}.properties`: the forms of a plural key, by category.",
            f"  static func compiled{language.capitalize()}Plural(_ key: MessageKey)"
            " -> [PluralCategory: String]? {",
            "    switch key {",
        ]
        for key, forms in plurals.items():
            body = ", ".join(f".{category}: {literal(text)}" for category, text in forms.items())
            lines.append(f"    case .{names[key]}: [{body}]")
        lines += ["    default: nil", "    }", "  }", ""]
    lines[-1] = "}"
    return "\n".join(lines) + "\n"


def main():
    text = compile_tables()
    if "--check" in sys.argv[1:]:
        with open(OUTPUT, encoding="utf-8") as current:
            if current.read() != text:
                sys.exit(f"{OUTPUT} is not what Locales/ give: run make locales")
        return
    with open(OUTPUT, "w", encoding="utf-8") as output:
        output.write(text)
    print(f"wrote {os.path.relpath(OUTPUT, ROOT)}")


main()
