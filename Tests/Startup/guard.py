#!/usr/bin/env python3
"""What the first offline answer costs, counted, never timed (make test, #50).

    guard.py RELEASE_BINARY [OTHER_BINARY...]

For each binary, `migrant-chat --offline --no-history` in a fresh home, run to its
first answer and exit with stdin closed, must
  - load no libcurl (nor the TLS libraries it brings): LD_DEBUG=libs; the release
    binary (the first) not SQLite, readline, libstdc++, the stemmer or zlib either,
    which it carries linked in;
  - (the release binary) define next to no symbols in its dynamic table: readelf;
  - open no SQLite store but the two the answer and the chat's tools use
    (directory.sqlite, user.sqlite), never the history with --no-history: strace;
  - end, with its history kept, without closing its stores (no -wal or -shm deleted
    on the way out): strace;
  - start no more threads than the signals' one: the chat's task runs on the main
    thread, and nothing else before the first answer needs one: strace;
  - (the release binary) run its start-up code from few 64 KB windows of the binary,
    which it is when linked in the start-up's order: callgrind's instruction addresses;
and the release binary (the first) must answer within an instruction budget, with and
without its history, counted
by valgrind's callgrind (the same count on a busy machine as on an idle one, within
0.01 %; perf's instructions:u counter is missing in most virtual machines). The
budget is the figure reached in #50 with a margin: raise it only with a reason in
BENCHMARKS.md. Nothing here waits a fixed time or asserts a duration.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Instructions (callgrind's Ir) of the first offline answer of the release binary:
# 6.1 million at #50's seventh round (7.3 at its sixth, 12.2 at its third, 26.0 at its
# second, 39.9 at its first, 43.9 before it), with a tenth more as the margin. See
# BENCHMARKS.md ("#50: start-up, counted") for where they go.
BUDGET = int(os.environ.get("MIGRANT_CHAT_STARTUP_BUDGET", "0")) or 6_800_000
# The same with the history kept (`--offline`, the chat as people start it): 6.9 million
# at the seventh round (8.1 at the sixth, 9.8 before the chat stopped closing its stores
# on the way out), with a tenth more.
HISTORY_BUDGET = int(os.environ.get("MIGRANT_CHAT_STARTUP_HISTORY_BUDGET", "0")) or 7_600_000
# The 64 KB windows of code the first offline answer runs in: laid out in the order it
# runs (Tools/startup/order.py) they are few; in the linker's own order, 217.
WINDOWS_LIMIT = 150
# Symbols the release binary defines in its dynamic table: libc's stdin, stdout and
# stderr (copy relocations). The static Swift runtime's link flags exported all 33,000
# of ours, which its start-up `dladdr` scanned (Makefile: --no-export-dynamic).
EXPORTED_LIMIT = 16
FORBIDDEN_LIBRARIES = ("libcurl", "libssl", "libcrypto", "libgnutls", "libnghttp2", "libldap")
# Linked into the release binary from their static archives (Makefile: static-libs):
# loading and relocating them was a fifth of the first offline answer.
LINKED_IN = ("libstdc++", "libsqlite3", "libreadline", "libtinfo", "libstemmer", "libz.")
ALLOWED_STORES = {"directory.sqlite", "user.sqlite"}
# Threads the first offline answer may start: SignalHub's. With an async `main`, the chat's
# task ran on Swift's pool: a worker, libdispatch's manager thread, and more for the input
# queue, the background task and the directory's queue, five in all (#50).
THREADS_LIMIT = 1
ARGUMENTS = ["--offline", "--no-history"]
# The chat as people start it: the history kept. Its store is opened, and it must not be
# closed on the way out (`teardown`).
WITH_HISTORY = ["--offline"]

failures = []


def fail(message):
    failures.append(message)
    print("FAIL  " + message)


def environment(home, extra=None):
    env = {
        "HOME": home,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": home + "/config",
        "XDG_CACHE_HOME": home + "/cache",
        "XDG_STATE_HOME": home + "/state",
        "XDG_DATA_HOME": home + "/data",
    }
    env.update(extra or {})
    return env


def answer(binary, home, extra=None, prefix=(), arguments=ARGUMENTS):
    """The first offline answer; the run must succeed and print it."""
    result = subprocess.run(list(prefix) + [binary] + arguments, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, env=environment(home, extra))
    if result.returncode != 0 or "[1]" not in result.stdout:
        fail(f"{binary}: the first offline answer did not come (exit {result.returncode}): "
             f"{result.stdout[-300:]} {result.stderr[-300:]}")
    return result


def libraries(binary, home, release=False):
    folder = tempfile.mkdtemp(dir=home)
    answer(binary, home, {"LD_DEBUG": "libs", "LD_DEBUG_OUTPUT": folder + "/ld"})
    loaded = set()
    for path in glob.glob(folder + "/ld*"):
        with open(path, errors="replace") as log:
            for line in log:
                found = re.search(r"calling init: (\S+)", line)
                if found:
                    loaded.add(os.path.basename(found.group(1)))
    if not loaded:
        fail(f"{binary}: LD_DEBUG=libs wrote nothing: cannot tell what was loaded")
    bad = sorted(name for name in loaded if name.startswith(FORBIDDEN_LIBRARIES))
    if bad:
        fail(f"{binary}: the offline answer loaded {', '.join(bad)}")
        return
    shared = sorted(name for name in loaded if name.startswith(LINKED_IN))
    if release and shared:
        fail(f"{binary}: loads {', '.join(shared)} as shared libraries: their static archives "
             f"were missing when it was linked (make static-libs names them)")
    print(f"      {os.path.basename(binary)}: {len(loaded)} libraries loaded, none of libcurl's")


def exported(binary):
    table = subprocess.run(["readelf", "--dyn-syms", "-W", binary], capture_output=True, text=True)
    defined = [line for line in table.stdout.splitlines()
               if re.match(r"\s*\d+:", line) and len(line.split()) >= 8 and line.split()[6] != "UND"]
    if table.returncode != 0 or not table.stdout:
        fail(f"{binary}: readelf could not read its dynamic symbols: {table.stderr[-300:]}")
    elif len(defined) > EXPORTED_LIMIT:
        fail(f"{binary}: defines {len(defined):,} dynamic symbols (at most {EXPORTED_LIMIT}): "
             f"linked with --export-dynamic, which the start-up's dladdr pays for")
    else:
        print(f"      {os.path.basename(binary)}: {len(defined)} symbols in its dynamic table")


def stores(binary, home):
    if not shutil.which("strace"):
        fail("strace is missing (make test installs it): the stores opened cannot be checked")
        return
    trace = home + "/trace"
    answer(binary, home, prefix=["strace", "-f", "-qq", "-e", "trace=open,openat", "-o", trace])
    opened = set()
    with open(trace, errors="replace") as log:
        for line in log:
            found = re.search(r'"([^"]+\.sqlite)"', line)
            if found and "= -1" not in line:
                opened.add(os.path.basename(found.group(1)))
    extra = sorted(opened - ALLOWED_STORES)
    if extra:
        fail(f"{binary}: the offline answer opened {', '.join(extra)} "
             f"(only {', '.join(sorted(ALLOWED_STORES))} are needed; with --no-history, never the history)")
    if "directory.sqlite" not in opened:
        fail(f"{binary}: the trace shows no directory.sqlite opened: the check sees nothing")
    print(f"      {os.path.basename(binary)}: stores opened: {', '.join(sorted(opened))}")


def teardown(binary, home):
    """The chat ends with its stores open: closing each one checkpointed its log and deleted
    its -wal and -shm files, which the next start made again (#50)."""
    trace = home + "/trace-exit"
    answer(binary, home, prefix=["strace", "-f", "-qq", "-e", "trace=unlink,unlinkat", "-o", trace],
           arguments=WITH_HISTORY)
    with open(trace, errors="replace") as log:
        deleted = sorted({os.path.basename(found.group(1)) for found in
                          (re.search(r'"([^"]+\.sqlite-(?:wal|shm))"', line) for line in log) if found})
    if deleted:
        fail(f"{binary}: the chat closed its stores on the way out (deleted {', '.join(deleted)}): "
             f"it should end with them open, as ChatCommand.run does")
    else:
        print(f"      {os.path.basename(binary)}: the chat ended with its stores open")


def threads(binary, home):
    """Threads started before the first offline answer and exit: each is a clone, a stack
    mapped, and hand-offs between cores (#50)."""
    trace = home + "/trace-threads"
    answer(binary, home, prefix=["strace", "-f", "-qq", "-e", "trace=clone,clone3", "-o", trace])
    with open(trace, errors="replace") as log:
        started = sum(1 for line in log if re.search(r"\bclone3?\(", line) and "= -1" not in line)
    if started > THREADS_LIMIT:
        fail(f"{binary}: the first offline answer started {started} threads (at most {THREADS_LIMIT}): "
             f"the chat's task should run on the main thread (MainThreadExecutor)")
    else:
        print(f"      {os.path.basename(binary)}: threads started: {started}")


def code_windows(profile, binary):
    """The 64 KB windows of the binary's code that ran, from callgrind's instruction
    addresses (`--dump-instr=yes`: at the start of each cost line, an absolute address in
    hex, or one relative to the last in decimal, or `*`, the same). 64 KB is what the
    kernel maps around a fault in a file's pages."""
    windows, ours, address, objects = set(), False, 0, {}
    with open(profile, errors="replace") as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                found = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if found and found.group(2):
                    objects[found.group(1)] = found.group(2)
                if found and line.startswith("ob="):
                    ours = os.path.realpath(objects.get(found.group(1), "")) == os.path.realpath(binary)
                continue
            if not ours or not line.strip():
                continue
            word = line.split(None, 1)[0]
            if word.startswith("0x"):
                address = int(word, 16)
            elif word[0] in "+-" and len(word) > 1:
                address += int(word, 10)
            elif word != "*":
                continue
            windows.add(address >> 16)
    return len(windows)


def count(binary, home, arguments, budget, what, windows_limit=None):
    profile = home + "/callgrind.out"
    result = answer(binary, home, prefix=["valgrind", "--tool=callgrind", "--dump-instr=yes",
                                          "--callgrind-out-file=" + profile], arguments=arguments)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if not found:
        fail(f"{binary}: callgrind counted nothing: {result.stderr[-300:]}")
        return
    if windows_limit:
        windows = code_windows(profile, binary)
        print(f"      {os.path.basename(binary)}: its code that ran lies in {windows} windows of 64 KB "
              f"(at most {windows_limit})")
        if windows > windows_limit or windows == 0:
            fail(f"{binary}: the code that ran to {what} is spread over {windows} windows of 64 KB "
                 f"(at most {windows_limit}): was it linked in the start-up's order "
                 f"(Makefile: release_binary, Tools/startup/order.py)?")
    figure = int(found.group(1))
    print(f"      {os.path.basename(binary)}: {figure:,} instructions to {what} "
          f"(budget {budget:,}, {figure / budget:.0%} of it)")
    if figure > budget:
        fail(f"{binary}: {figure:,} instructions to {what}, over the budget of "
             f"{budget:,}: profile it (BENCHMARKS.md, 'Startup, counted') before raising it")


def instructions(binary, home):
    if not shutil.which("valgrind"):
        fail("valgrind is missing (make test installs it): the instruction budget cannot be checked")
        return
    count(binary, home, ARGUMENTS, BUDGET, "the first offline answer", windows_limit=WINDOWS_LIMIT)
    # Twice: the first run leaves the history's log behind, as every chat does.
    answer(binary, home, arguments=WITH_HISTORY)
    count(binary, home, WITH_HISTORY, HISTORY_BUDGET, "the first offline answer with the history")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    binaries = [os.path.abspath(path) for path in sys.argv[1:]]
    for index, binary in enumerate(binaries):
        home = tempfile.mkdtemp(prefix="migrant-chat-startup-")
        try:
            # The first run creates the caches; the counted ones open them, as every later start does.
            answer(binary, home)
            libraries(binary, home, release=index == 0)
            stores(binary, home)
            teardown(binary, home)
            threads(binary, home)
            if index == 0:
                exported(binary)
                instructions(binary, home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
    if failures:
        print(f"startup guard: {len(failures)} failed")
        sys.exit(1)
    print("startup guard: passed")


main()
