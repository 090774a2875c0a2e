#!/usr/bin/env python3
"""`make bench`: where migrant-chat stands, side by side with the alternatives,
in one run on one machine, so ratios hold on a noisy machine.

Usage: bench.py [--quick] [--markdown FILE]
Needs the release build (`make bench` builds it), hyperfine and wrk.
Prints one table; with --markdown also writes it, with the date, the machine
and the commit, for BENCHMARKS.md. Asserts nothing.
"""
import argparse, json, os, platform, pty, re, select, signal, socket, statistics, subprocess
import sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASE = os.path.join(ROOT, ".build", "release")
CLIENT = os.path.join(RELEASE, "migrant-chat")
BENCH = os.path.join(RELEASE, "migrant-bench")
BASELINE = os.path.join(RELEASE, "turn-baseline")
RASA_CACHE = os.path.expanduser("~/.cache/migrant-chat")
# Free-text turns, the offline assistant searching its guides on each.
MESSAGES = ["health insurance", "how do I rent a flat", "work permit", "school for my child",
            "residence permit extension", "deposit", "employment contract"]

rows = []
SKIP_RASA = False


def row(section, what, migrant, other="", ratio=""):
    rows.append((section, what, migrant, other, ratio))
    print(f"  {what}: {migrant}" + (f"  |  {other}" if other else "") + (f"  |  {ratio}" if ratio else ""),
          flush=True)


def environment(home):
    return {"HOME": home, "XDG_CACHE_HOME": home + "/cache", "XDG_STATE_HOME": home + "/state",
            "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "NO_COLOR": "1", "COLUMNS": "80"}


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(len(values) * p + 0.999999) - 1))]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


class Serve:
    """`migrant-chat serve` on a free loopback port, for the length of a `with`."""

    def __init__(self, home):
        self.port = free_port()
        self.process = subprocess.Popen([CLIENT, "serve", "--port", str(self.port)],
                                        env=environment(home), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        if not wait_for(self.port):
            raise SystemExit("serve did not start")
        self.url = f"http://127.0.0.1:{self.port}"

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


def timed_run(arguments, env, stdin_data):
    """Seconds a program takes to read `stdin_data` and end (its output is discarded)."""
    started = time.perf_counter()
    subprocess.run(arguments, env=env, input=stdin_data, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def peak_rss_of(arguments, env, stdin_data):
    """Peak RSS (MB) of a child, from wait4's rusage."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(read_end, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.close(write_end)
        os.execve(arguments[0], arguments, env)
    os.close(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(stdin_data)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def startup(home, runs):
    print("1. Startup", flush=True)
    env = environment(home)
    # Exec to the first bot message printed (pipe, offline assistant): the first stdout bytes.
    subprocess.run([CLIENT, "--offline"], env=env, input=b"", capture_output=True)  # warm cache
    firsts = []
    for _ in range(runs):
        started = time.perf_counter()
        process = subprocess.Popen([CLIENT, "--offline"], env=env, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        os.read(process.stdout.fileno(), 1)
        firsts.append(time.perf_counter() - started)
        process.stdin.close()
        process.stdout.read()
        process.wait()
    first_median = statistics.median(firsts) * 1000
    row("startup", f"exec to first bot message, offline, pipe ({runs} runs)",
        f"median {first_median:.1f} ms, p90 {percentile(firsts, 0.9) * 1000:.1f} ms")
    out = subprocess.run(["hyperfine", "--runs", str(runs), "--warmup", "3", "-N", "--export-json",
                          home + "/version.json", f"{CLIENT} --version"],
                         capture_output=True, text=True, env={**os.environ, **env})
    if out.returncode == 0:
        times = json.load(open(home + "/version.json"))["results"][0]["times"]
        row("startup", f"exec to exit, --version (hyperfine, {runs} runs)",
            f"median {statistics.median(times) * 1000:.1f} ms, p90 {percentile(times, 0.9) * 1000:.1f} ms")
    else:
        row("startup", "exec to exit, --version", "hyperfine failed: " + out.stderr.strip()[:80])
    rasa = rasa_shell_startup()
    if isinstance(rasa, str):
        row("startup", "`rasa shell` to its first prompt", "", rasa)
    else:
        row("startup", f"`rasa shell` to its first prompt ({len(rasa)} runs)",
            f"{first_median:.1f} ms", f"median {statistics.median(rasa):.1f} s",
            f"{statistics.median(rasa) * 1000 / first_median:.0f}x faster")


def rasa_shell_startup(runs=3):
    """Seconds from exec to `rasa shell`'s first prompt, with the Rasa tier's venv and model."""
    if SKIP_RASA:
        return "not measured: --no-rasa"
    rasa = os.path.join(RASA_CACHE, "rasa-venv", "bin", "rasa")
    models = os.path.join(RASA_CACHE, "rasa-models")
    if not os.path.exists(rasa):
        return "not measured: no Rasa install (run `make test` once: the Rasa tier installs it)"
    candidates = sorted((os.path.join(models, m) for m in os.listdir(models) if m.endswith(".tar.gz")),
                        key=os.path.getmtime) if os.path.isdir(models) else []
    if not candidates:
        return "not measured: no trained model in " + models
    times = []
    for _ in range(runs):
        port = free_port()
        started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(os.path.join(ROOT, "Tests", "RasaBot"))
            os.execv(rasa, [rasa, "shell", "-m", candidates[-1], "--port", str(port)])
        screen = b""
        deadline = time.time() + 180
        while b"Your input" not in screen and time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 1)
            if ready:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    break
        elapsed = time.perf_counter() - started
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
        if b"Your input" not in screen:
            return "not measured: no prompt within 180 s: " + screen.decode("utf-8", "replace")[-200:]
        times.append(elapsed)
    return times


def turns(home, count):
    print(f"2. Turn overhead ({count} turns, one conversation, `serve` on loopback)", flush=True)
    lines = [MESSAGES[n % len(MESSAGES)] for n in range(count)]
    sender = "bench-turns"
    with open(home + "/bodies.jsonl", "w") as bodies:
        for line in lines:
            bodies.write(json.dumps({"language": "en", "message": line, "metadata": {"language": "en"},
                                     "sender": sender}, separators=(",", ":"), sort_keys=True) + "\n")
    stdin = ("\n".join(lines) + "\n").encode()
    with Serve(home) as serve:
        env = environment(home)
        client_rates, baseline_rates = [], []
        for _ in range(3):  # interleaved, best of three each
            elapsed = timed_run([CLIENT, "--server", serve.url, "--sender", sender], env, stdin)
            client_rates.append(count / elapsed)
            out = subprocess.run([BASELINE, serve.url + "/webhooks/rest/webhook", home + "/bodies.jsonl"],
                                 capture_output=True, text=True, check=True)
            baseline_rates.append(float(out.stdout.split()[2]))
        client, baseline = max(client_rates), max(baseline_rates)
        row("turns", "turns per second, client vs C libcurl baseline (best of 3)",
            f"{client:,.0f}/s", f"{baseline:,.0f}/s", f"{client / baseline:.2f}")
        session_lines = stdin.decode().split("\n")[:1000]
        rss, status = peak_rss_of([CLIENT, "--server", serve.url, "--sender", "bench-rss"], env,
                                  ("\n".join(session_lines) + "\n").encode())
        if status != 0:
            raise SystemExit(f"the 1,000-turn session failed with status {status}")
    return rss


def in_process(arguments):
    out = subprocess.run([BENCH] + arguments, capture_output=True, text=True, check=True)
    figures = {}
    for line in out.stdout.splitlines():
        if line.startswith("figure "):
            _, name, value = line.split()
            figures[name] = float(value)
    return figures


def rendering():
    print("3. Rendering and decoding", flush=True)
    figures = in_process(["render"])
    row("render", "messages rendered per second (text + buttons, 3 cards; 80 columns)",
        f"{figures['render.messages_per_s']:,.0f}/s")
    answers = [os.path.join(ROOT, "Tests", "Benchmarks", "Fixtures", name)
               for name in ("rasa-answers.jsonl", "serve-answers.jsonl")]
    answers = [a for a in answers if os.path.exists(a)]
    figures = in_process(["decode"] + answers)
    row("decode", "recorded answers decoded (" + ", ".join(os.path.basename(a) for a in answers) + ")",
        f"{figures['decode.mb_per_s']:.1f} MB/s, {figures['decode.messages_per_s']:,.0f} messages/s")


def scale(contacts, guides):
    print(f"4. Directory at scale ({contacts:,} contacts, {guides:,} guides)", flush=True)
    figures = in_process(["directory", str(contacts)])
    row("directory", f"sync of {contacts:,} generated contacts", f"{figures['directory.sync_s']:.2f} s")
    row("directory", "search (first 20 and the total), 1,000 queries, in-memory index",
        f"p50 {figures['directory.search_p50_ms']:.2f} ms, p99 {figures['directory.search_p99_ms']:.2f} ms",
        f"FTS5 alone: p50 {figures['directory.fts_p50_ms']:.2f} ms, p99 {figures['directory.fts_p99_ms']:.2f} ms",
        f"{figures['directory.fts_p99_ms'] / figures['directory.search_p99_ms']:.0f}x at p99")
    row("directory", "search index built (in the background, after the first search)",
        f"{figures['directory.index_build_ms']:,.0f} ms")
    row("directory", "resolving 1,000 ids", f"{figures['directory.resolve_1000_ms']:.1f} ms")
    figures = in_process(["guidance", str(guides)])
    row("guidance", f"offline free-text answer over {guides:,} guides, 2,000 queries",
        f"p50 {figures['guidance.answer_p50_ms']:.3f} ms, p99 {figures['guidance.answer_p99_ms']:.3f} ms")


def memory(home, session_rss, seconds):
    print("5. Memory", flush=True)
    row("memory", "peak RSS of a 1,000-turn chat session (against `serve`)", f"{session_rss:.1f} MB")
    with Serve(home) as serve:
        lua = os.path.join(ROOT, "Tests", "Benchmarks", "serve", "post.lua")
        subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "-s", lua, serve.url + "/webhooks/rest/webhook",
                        "--", "health insurance"], capture_output=True, check=True)
        row("memory", f"peak RSS of `serve` under 16 concurrent clients ({seconds} s of wrk)",
            f"{serve.peak_rss_mb():.1f} MB")


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory_kb = int(open("/proc/meminfo").readline().split()[1])
    return f"{os.cpu_count()} cores, {cpu}, {memory_kb / 1024 / 1024:.0f} GiB, {platform.platform()}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, to check the script works")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--only", default="startup,turns,render,scale,memory",
                        help="comma-separated sections (default: all)")
    parser.add_argument("--no-rasa", action="store_true", help="skip `rasa shell`")
    options = parser.parse_args()
    runs, count, contacts, guides, seconds = (5, 300, 2000, 500, 2) if options.quick else (30, 5000, 100000, 10000, 10)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    header = f"{time.strftime('%Y-%m-%d')}, commit {commit}, {machine()}"
    print("migrant-chat benchmarks: " + header, flush=True)
    only = set(options.only.split(","))
    global SKIP_RASA
    SKIP_RASA = options.no_rasa
    with tempfile.TemporaryDirectory() as home:
        if "startup" in only:
            startup(home, runs)
        session_rss = turns(home, count) if only & {"turns", "memory"} else 0
        if "render" in only:
            rendering()
        if "scale" in only:
            scale(contacts, guides)
        if "memory" in only:
            memory(home, session_rss, seconds)
    table = ["| section | what | migrant-chat | alternative | ratio |", "|---|---|---|---|---|"]
    table += [f"| {s} | {w} | {m} | {o} | {r} |" for s, w, m, o, r in rows]
    print()
    print("\n".join(table))
    if options.markdown:
        with open(options.markdown, "w") as out:
            out.write(header + "\n\n" + "\n".join(table) + "\n")


if __name__ == "__main__":
    main()
