#!/usr/bin/env python3
"""The order the release binary's start-up code and data are laid out in (#50).

    order.py BINARY ORDER_FILE

Runs BINARY's first offline answer (`--offline --no-history`, then `--offline` with
the history) in a fresh home under valgrind's lackey, which writes every instruction
and every load and store; maps them to BINARY's symbols (it must not be stripped);
and writes ORDER_FILE: the functions in the order they first ran, then the variables
of .data, .rodata and .bss in the order they were first touched. The linker (lld's
--symbol-ordering-file, Makefile) puts them side by side, so the start touches a few
packed pages rather than one page here and there across 30 MB of code and 1.3 MB of
variables: 1,097 -> 863 page faults, each a few microseconds on these machines.

.data.rel.ro is left out: the loader writes every page of it while relocating, used
or not. Without valgrind, or when the trace fails, ORDER_FILE is left as it is (the binary
is only slower) and a note says so; make test's start-up guard fails a binary whose
start is spread out. Nothing here is timed.
"""
import bisect
import os
import re
import shutil
import subprocess
import sys
import tempfile

RUNS = (["--offline", "--no-history"], ["--offline"])


def sections(binary):
    """{name: (start, end)} of the sections that matter, from the ELF section headers."""
    found = {}
    table = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True)
    for line in table.stdout.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if match:
            start, size = int(match.group(2), 16), int(match.group(3), 16)
            found[match.group(1)] = (start, start + size)
    return found


def entry_point(binary):
    header = subprocess.run(["readelf", "-hW", binary], capture_output=True, text=True, check=True)
    return int(re.search(r"Entry point address:\s+0x([0-9a-f]+)", header.stdout).group(1), 16)


def symbols(binary):
    """(addresses, [(address, size, name)]) of every defined symbol, sorted by address."""
    listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary],
                             capture_output=True, text=True, check=True)
    table = []
    for line in listing.stdout.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4:
            table.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    table.sort()
    return [row[0] for row in table], table


def trace(binary, arguments, home, log):
    env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
           "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data"}
    # Twice first: the caches are made, then a log left behind is emptied, as at a usual start.
    for _ in range(2):
        subprocess.run([binary] + arguments, stdin=subprocess.DEVNULL, capture_output=True, env=env)
    subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", "--log-file=" + log, binary]
                   + arguments, stdin=subprocess.DEVNULL, capture_output=True, env=env, check=True)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    binary, output = sys.argv[1], sys.argv[2]
    if not shutil.which("valgrind"):
        print("order.py: no valgrind here: the release binary is linked in the last order "
              "traced, if any (the start-up guard of make test says when that is too far off)")
        return
    try:
        write_order(binary, output)
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError) as error:
        # A build does not fail for its layout: the guard of make test does, when it matters.
        print(f"order.py: no trace ({error}): the release binary is linked in the last order traced")


def write_order(binary, output):
    found = sections(binary)
    text = found[".text"]
    data = [found[name] for name in (".data", ".rodata", ".bss") if name in found]
    addresses, table = symbols(binary)
    if not table:
        raise ValueError(f"{binary} has no symbols (stripped?)")
    # Where valgrind maps a position-independent executable (m_ume/elf.c).
    base = 0x100000 + 8 * os.sysconf("SC_PAGE_SIZE")
    start = "I  %08x," % (base + entry_point(binary))

    def symbol(offset):
        index = bisect.bisect_right(addresses, offset) - 1
        while index >= 0:
            address, size, name = table[index]
            if address <= offset < address + max(size, 1):
                return name
            if offset - address > 1 << 16:
                return None
            index -= 1
        return None

    functions, variables, seen = [], [], set()
    home = tempfile.mkdtemp(prefix="migrant-chat-order-")
    try:
        # Valgrind 3.19 gives up on the DWARF 5 that Swift writes: it runs a stripped copy,
        # laid out the same.
        runnable = os.path.join(home, "migrant-chat")
        subprocess.run(["strip", "-o", runnable, binary], check=True)
        for arguments in RUNS:
            log = os.path.join(home, "lackey.log")
            trace(runnable, arguments, home, log)
            started = False
            with open(log, errors="replace") as lines:
                for line in lines:
                    if not started:
                        # The loader's relocations touch every pointer: only what the
                        # program itself runs and reads counts, from its entry point on.
                        started = line.startswith(start)
                        if not started:
                            continue
                    kind = line[:2].strip()
                    if kind not in ("I", "L", "S", "M"):
                        continue
                    try:
                        offset = int(line[3:].split(",", 1)[0], 16) - base
                    except ValueError:
                        continue
                    if kind == "I":
                        if not text[0] <= offset < text[1]:
                            continue
                        into = functions
                    elif any(low <= offset < high for low, high in data):
                        into = variables
                    else:
                        continue
                    name = symbol(offset)
                    if name and name not in seen:
                        seen.add(name)
                        into.append(name)
            os.remove(log)
            if not started:
                raise ValueError(f"the trace never reached {binary}'s entry point")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    with open(output + ".new", "w") as file:
        file.write("\n".join(functions + variables) + "\n")
    os.replace(output + ".new", output)
    print(f"order.py: {len(functions):,} functions and {len(variables):,} variables "
          f"of the first offline answer, in {output}")


main()
