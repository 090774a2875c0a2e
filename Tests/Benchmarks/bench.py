#!/usr/bin/env python3
"""`make bench`: where migrant-chat stands, side by side with the alternatives,
in one run on one machine, so ratios hold on a noisy machine.

Usage: bench.py [--quick] [--markdown FILE] [--only SECTIONS] [--no-rasa]
Needs the release build (`make bench` builds it), hyperfine and wrk.
MIGRANT_BENCH_BUILD=DIR takes the binaries from DIR instead of .build/release
(a build with its own --scratch-path, say, so as not to hold up other builds).
Prints one table; with --markdown also writes it, with the date, the machine
and the commit, for BENCHMARKS.md. Asserts nothing, but fails when a measured
program fails (a recorded answer that does not decode, a search that errs).
"""
import argparse, hashlib, json, os, platform, pty, re, select, signal, socket, statistics, subprocess
import shutil, sys, tempfile, time, urllib.request

import loadbench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASE = os.environ.get("MIGRANT_BENCH_BUILD") or os.path.join(ROOT, ".build", "release")
CLIENT = os.path.join(RELEASE, "migrant-chat")
BENCH = os.path.join(RELEASE, "migrant-bench")
BASELINE = os.path.join(RELEASE, "turn-baseline")
RASA_CACHE = os.environ.get("MIGRANT_CHAT_RASA_CACHE") or os.path.expanduser("~/.cache/migrant-chat")
RASA_BOT = os.path.join(ROOT, "Tests", "RasaBot")
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


def children_cpu():
    """CPU seconds (user + system) of every child waited for so far."""
    usage = os.times()
    return usage.children_user + usage.children_system


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
    start_up_against_hello(home, runs)
    install = rasa_install()
    rasa = rasa_shell_startup(install)
    if isinstance(rasa, str):
        row("startup", "`rasa shell` to its first prompt", "", rasa)
    else:
        row("startup", f"`rasa shell` to its first prompt ({len(rasa)} runs)",
            f"{first_median:.1f} ms", f"median {statistics.median(rasa):.1f} s",
            f"{statistics.median(rasa) * 1000 / first_median:.0f}x faster")
    real_bot_startup(home, install, runs)
    serve_startup(home, runs)
    counted_startup()


def serve_startup(home, runs):
    """The chat's first real answer from `migrant-chat serve` (its greeting to `/start`), beside
    one raw libcurl POST of the byte-identical body to the same server, interleaved: the
    difference is the client's own cost, with no Rasa in it to hide it (#50)."""
    serve_home = os.path.join(home, "serve-startup")
    os.makedirs(serve_home, exist_ok=True)
    with Serve(serve_home) as server:
        env = environment(serve_home)
        client = [CLIENT, "--server", server.url]
        exec_to_exit(client, env)  # picks and remembers a sender id, as for a user
        state = json.load(open(serve_home + "/state/migrant-chat/state.json"))
        sender = next(iter(state["senders"].values()))
        body = json.dumps({"language": "en", "message": "/start", "metadata": {"language": "en"},
                           "sender": sender}, separators=(",", ":"), sort_keys=True)
        baseline = [BASELINE, "--once", server.url + "/webhooks/rest/webhook", body]
        if not json.loads(subprocess.run(baseline, capture_output=True, check=True).stdout):
            raise SystemExit("serve answered `/start` with no message")
        for _ in range(3):
            exec_to_exit(client, env)
            exec_to_exit(baseline, env)
        clients, raws = [], []
        for _ in range(runs):
            clients.append(exec_to_exit(client, env)[0])
            raws.append(exec_to_exit(baseline, env)[0])
    client_p50, raw_p50 = statistics.median(clients) * 1000, statistics.median(raws) * 1000
    row("startup", f"exec to exit, `--server` migrant-chat serve, start message `/start` in a pipe "
        f"({runs} runs, interleaved), vs one raw libcurl POST of the same body (C, `turn-baseline --once`)",
        f"median {client_p50:.1f} ms", f"median {raw_p50:.1f} ms",
        f"client's own cost {client_p50 - raw_p50:+.1f} ms ({client_p50 / raw_p50:.1f}x)")


def counted_startup():
    """Instructions to the first offline answer (callgrind: the same on a busy machine), the
    figure `make test`'s guard (Tests/Startup/guard.py) holds to a budget."""
    if not shutil.which("valgrind"):
        row("startup", "instructions to the first offline answer", "", "not measured: no valgrind")
        return
    guard = subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "Startup", "guard.py"), CLIENT],
                           capture_output=True, text=True)
    found = re.search(r"([\d,]+) instructions to the first offline answer \(budget ([\d,]+)", guard.stdout)
    if found:
        row("startup", "instructions to the first offline answer (callgrind), and the guard's budget",
            found.group(1), "budget " + found.group(2))
    else:
        row("startup", "instructions to the first offline answer", "", "guard failed: " + guard.stdout[-200:])


HELLO = """import Foundation
print("hello \\(Date().timeIntervalSince1970 > 0)")
"""


def start_up_against_hello(home, runs):
    """--version and the first offline answer beside a static hello world that imports
    Foundation, built here by the same compiler with the same static runtime."""
    source = os.path.join(home, "hello.swift")
    hello = os.path.join(home, "hello")
    with open(source, "w") as out:
        out.write(HELLO)
    built = subprocess.run(["swiftc", "-O", "-static-stdlib", source, "-o", hello],
                           capture_output=True, text=True, cwd=home)
    if built.returncode != 0:
        row("startup", "hello world (swiftc -static-stdlib)", "", "build failed: " + built.stderr[:80])
        return
    env = environment(home)
    # The figure (#50) is the first offline answer without the history; with it,
    # what a user who keeps the default gets.
    commands = [[hello], [CLIENT, "--version"], [CLIENT, "--offline", "--no-history"], [CLIENT, "--offline"]]
    floors = [libraries_floor(home, "floor", []), libraries_floor(home, "floor-curl", ["libcurl.so.4"])]
    if all(floors):
        commands += [[floor] for floor in floors]
    for command in commands:  # warm the page cache and the state files
        subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    # Interleaved, same method for all three (exec, empty stdin, wait): side by side in one run.
    times = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            started = time.perf_counter()
            subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            times[index].append(time.perf_counter() - started)
    medians = [statistics.median(t) * 1000 for t in times]
    row("startup", f"--version beside a static Foundation hello world (exec to exit, {runs} runs interleaved)",
        f"{medians[1]:.1f} ms", f"hello {medians[0]:.1f} ms", f"{medians[1] / medians[0]:.1f}x the hello world")
    row("startup", "--offline --no-history with empty input: the first answer, then exit (same runs)",
        f"{medians[2]:.2f} ms", f"hello {medians[0]:.2f} ms", f"{medians[2] / medians[0]:.2f}x the hello world")
    row("startup", "--offline, the history kept (same runs)",
        f"{medians[3]:.2f} ms", f"hello {medians[0]:.2f} ms", f"{medians[3] / medians[0]:.2f}x the hello world")
    if all(floors):
        row("startup", "the floor: an empty C `main` linked with the binary's shared libraries "
            "(its DT_NEEDED: readline, SQLite, ...), same runs",
            f"{medians[4]:.1f} ms", f"hello {medians[0]:.1f} ms", f"{medians[4] / medians[0]:.1f}x the hello world")
        row("startup", "the same and libcurl, which a chat with a server opens on its first "
            "connection and --version loads to say its version, same runs",
            f"{medians[5]:.1f} ms", f"hello {medians[0]:.1f} ms", f"{medians[5] / medians[0]:.1f}x the hello world")
    # GNU time's %M: a forked Python child's own peak would count the interpreter too.
    def peak(command):
        out = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        return int(out.stderr.strip().splitlines()[-1]) / 1024
    if os.path.exists("/usr/bin/time"):
        row("startup", "peak RSS of --version; of --offline with empty input",
            f"{peak([CLIENT, '--version']):.1f} MB; {peak([CLIENT, '--offline']):.1f} MB",
            f"hello {peak([hello]):.1f} MB")
    row("size", "binary, stripped (strip -o)", f"{stripped_mb(CLIENT):.1f} MB", f"hello {stripped_mb(hello):.1f} MB")


def libraries_floor(home, name, extra):
    """An empty C program linked with exactly the shared libraries the client loads at
    start (its DT_NEEDED entries) and `extra`: what loading them costs before any of the
    client's own code runs."""
    dynamic = subprocess.run(["readelf", "-d", CLIENT], capture_output=True, text=True)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic.stdout) + extra
    source, floor = os.path.join(home, name + ".c"), os.path.join(home, name)
    with open(source, "w") as out:
        out.write("int main(void) { return 0; }\n")
    libraries = [f"-l:{name}" for name in needed if not name.startswith(("libc.so", "ld-linux"))]
    built = subprocess.run(["clang", "-O2", source, "-o", floor, "-Wl,--no-as-needed"] + libraries,
                           capture_output=True, text=True)
    if built.returncode != 0:
        row("startup", "the floor: an empty C main with the same shared libraries", "",
            "build failed: " + built.stderr[:80])
        return None
    return floor


def stripped_mb(binary):
    with tempfile.TemporaryDirectory() as work:
        target = os.path.join(work, "stripped")
        subprocess.run(["strip", "-o", target, binary], check=True)
        return os.path.getsize(target) / 1048576


def rasa_install():
    """(rasa, model) of the Rasa tier (Tests/rasa-tier.sh): its cached venv, and the model
    trained from Tests/RasaBot as it is now (cached by the same hash); else why not, a string."""
    if SKIP_RASA:
        return "not measured: --no-rasa"
    rasa = os.path.join(RASA_CACHE, "rasa-venv", "bin", "rasa")
    if not os.path.exists(rasa):
        return "not measured: no Rasa install (run `make test-rasa` once: the Rasa tier installs it)"
    # rasa-tier.sh: find config.yml domain.yml data -type f -print0 | sort -z | xargs -0 cat | sha256sum
    files = [name for name in ("config.yml", "domain.yml") if os.path.isfile(os.path.join(RASA_BOT, name))]
    for folder, _, names in os.walk(os.path.join(RASA_BOT, "data")):
        files += [os.path.relpath(os.path.join(folder, name), RASA_BOT) for name in names]
    digest = hashlib.sha256()
    for name in sorted(files, key=os.fsencode):
        with open(os.path.join(RASA_BOT, name), "rb") as part:
            digest.update(part.read())
    model = os.path.join(RASA_CACHE, "rasa-models", digest.hexdigest()[:16] + ".tar.gz")
    if not os.path.exists(model):
        return f"not measured: no model trained from Tests/RasaBot as it is ({model}; `make test-rasa` trains it)"
    return rasa, model


def rasa_shell_startup(install, runs=3):
    """Seconds from exec to `rasa shell`'s first prompt, with the Rasa tier's venv and model."""
    if isinstance(install, str):
        return install
    rasa, model = install
    times = []
    for _ in range(runs):
        port = free_port()
        started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(RASA_BOT)
            os.execv(rasa, [rasa, "shell", "-m", model, "--port", str(port)])
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


class RasaServer:
    """The Rasa tier's server (Tests/rasa-tier.sh): its action server and `rasa run` with the
    REST channels on free loopback ports, for the length of a `with`."""

    def __init__(self, home, rasa, model):
        actions_port, port = free_port(), free_port()
        with open(home + "/endpoints.yml", "w") as endpoints:
            endpoints.write(f'action_endpoint:\n  url: "http://127.0.0.1:{actions_port}/webhook"\n')
        self.log = open(home + "/rasa.log", "wb")
        self.processes = []
        # Each in its own process group, so that stopping it stops what it started.
        for arguments in ([rasa, "run", "actions", "--port", str(actions_port), "--actions", "actions"],
                          [rasa, "run", "--enable-api", "--port", str(port), "--interface", "127.0.0.1",
                           "--credentials", "credentials.yml", "--endpoints", home + "/endpoints.yml",
                           "--model", model]):
            self.processes.append(subprocess.Popen(arguments, cwd=RASA_BOT, stdin=subprocess.DEVNULL,
                                                   stdout=self.log, stderr=subprocess.STDOUT,
                                                   start_new_session=True))
        self.url = f"http://127.0.0.1:{port}"
        self.ready = (self.answers(f"http://127.0.0.1:{actions_port}/health")
                      and self.answers(self.url + "/webhooks/rest/"))

    def answers(self, url, seconds=240):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(process.poll() is not None for process in self.processes):
                return False
            try:
                urllib.request.urlopen(url, timeout=1).close()
                return True
            except Exception:  # not listening yet, or not answering yet
                time.sleep(0.5)
        return False

    def log_tail(self):
        self.log.flush()
        with open(self.log.name, "rb") as log:
            return log.read().decode("utf-8", "replace").strip()[-200:]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.log.close()


def exec_to_exit(arguments, env, first_byte=False):
    """Seconds from exec to exit of a program in a pipe (stdin closed at once, stdout read to
    its end); with first_byte, also the seconds to its first byte on stdout."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(arguments, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=errors)
        process.stdin.close()
        first = None
        if first_byte and os.read(process.stdout.fileno(), 1):
            first = time.perf_counter() - started
        process.stdout.read()
        status = process.wait()
        elapsed = time.perf_counter() - started
        process.stdout.close()
        if status != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(arguments[:4])} … exited with {status}: "
                             + errors.read().decode("utf-8", "replace")[-300:])
    return elapsed, first


def real_bot_startup(home, install, runs):
    """`migrant-chat --server URL` as a bot user runs it, against the Rasa tier's server, next to
    one raw libcurl POST of the same request body to the same server, interleaved."""
    label = "exec to exit, `--server` real Rasa, start message `/start` in a pipe"
    if isinstance(install, str):
        row("startup", label, "", install)
        return
    print("   starting the Rasa tier's server (its action server and `rasa run`)", flush=True)
    with RasaServer(home, *install) as rasa:
        if not rasa.ready:
            row("startup", label, "", "not measured: Rasa did not start: " + rasa.log_tail())
            return
        env = environment(home)
        client = [CLIENT, "--server", rasa.url]
        # The first run picks and remembers a sender id, as for a user; later runs reuse it.
        exec_to_exit(client, env)
        state = json.load(open(home + "/state/migrant-chat/state.json"))
        sender = next(iter(state["senders"].values()))
        body = json.dumps({"language": "en", "message": "/start", "metadata": {"language": "en"},
                           "sender": sender}, separators=(",", ":"), sort_keys=True)
        baseline = [BASELINE, "--once", rasa.url + "/webhooks/rest/webhook", body]
        answer = subprocess.run(baseline, capture_output=True, check=True).stdout
        if not json.loads(answer):
            raise SystemExit("Rasa answered `/start` with no message: " + answer.decode()[:200])
        for _ in range(3):  # warm-up: Rasa's first predictions, the page cache
            exec_to_exit(client, env)
            exec_to_exit(baseline, env)
        firsts, clients, raws = [], [], []
        for _ in range(runs):  # interleaved
            elapsed, first = exec_to_exit(client, env, first_byte=True)
            clients.append(elapsed)
            firsts.append(first)
            raws.append(exec_to_exit(baseline, env)[0])
    client_p50, raw_p50 = statistics.median(clients) * 1000, statistics.median(raws) * 1000
    row("startup", f"exec to first bot message, `--server` real Rasa 3.6.21, pipe ({runs} runs)",
        f"median {statistics.median(firsts) * 1000:.1f} ms, p90 {percentile(firsts, 0.9) * 1000:.1f} ms")
    row("startup", f"{label} ({runs} runs, interleaved), vs one raw libcurl POST of the same body "
        "(C, `turn-baseline --once`)",
        f"median {client_p50:.1f} ms, p90 {percentile(clients, 0.9) * 1000:.1f} ms",
        f"median {raw_p50:.1f} ms, p90 {percentile(raws, 0.9) * 1000:.1f} ms",
        f"client's own overhead {client_p50 - raw_p50:+.1f} ms")


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
        client_rates, baseline_rates, client_cpu, baseline_cpu = [], [], [], []
        for _ in range(3):  # interleaved, best of three each
            before = children_cpu()
            elapsed = timed_run([CLIENT, "--server", serve.url, "--sender", sender], env, stdin)
            client_cpu.append((children_cpu() - before) / count)
            client_rates.append(count / elapsed)
            before = children_cpu()
            out = subprocess.run([BASELINE, serve.url + "/webhooks/rest/webhook", home + "/bodies.jsonl"],
                                 capture_output=True, text=True, check=True)
            baseline_cpu.append((children_cpu() - before) / count)
            baseline_rates.append(float(out.stdout.split()[2]))
        client, baseline = max(client_rates), max(baseline_rates)
        row("turns", "turns per second, client vs C libcurl baseline (best of 3)",
            f"{client:,.0f}/s", f"{baseline:,.0f}/s", f"{client / baseline:.2f}")
        # The client's own CPU (user + system, from wait4) per turn, start-up included.
        row("turns", "client CPU per turn, user + system (median of 3)",
            f"{statistics.median(client_cpu) * 1e6:,.0f} µs", f"{statistics.median(baseline_cpu) * 1e6:,.0f} µs",
            f"{statistics.median(client_cpu) / statistics.median(baseline_cpu):.1f}x")
        session_lines = stdin.decode().split("\n")[:1000]
        rss, status = peak_rss_of([CLIENT, "--server", serve.url, "--sender", "bench-rss"], env,
                                  ("\n".join(session_lines) + "\n").encode())
        if status != 0:
            raise SystemExit(f"the 1,000-turn session failed with status {status}")
    return rss


def in_process(arguments):
    out = subprocess.run([BENCH] + arguments, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"migrant-bench {' '.join(arguments)} failed ({out.returncode}):\n{out.stderr.strip()}")
    figures = {}
    for line in out.stdout.splitlines():
        if line.startswith("figure "):
            _, name, value = line.split()
            figures[name] = float(value)
    return figures


def rendering():
    print("3. Rendering and decoding", flush=True)
    figures = in_process(["render"])
    row("render", "messages rendered per second (text + buttons, 3 cards; 80 columns), best language",
        f"{figures['render.messages_per_s']:,.0f}/s",
        "en {:,.0f}/s, ru {:,.0f}/s, uk {:,.0f}/s".format(
            *(figures[f"render.{language}_messages_per_s"] for language in ("en", "ru", "uk"))))
    answers = [os.path.join(ROOT, "Tests", "Benchmarks", "Fixtures", name)
               for name in ("rasa-answers.jsonl", "serve-answers.jsonl")]
    answers = [a for a in answers if os.path.exists(a)]
    figures = in_process(["decode"] + answers)
    row("decode", "recorded answers decoded, all of them whole (" + ", ".join(os.path.basename(a) for a in answers) + ")",
        f"{figures['decode.mb_per_s']:.1f} MB/s, {figures['decode.messages_per_s']:,.0f} messages/s")


def scale(contacts, guides):
    print(f"4. Directory at scale ({contacts:,} contacts, {guides:,} guides)", flush=True)
    figures = in_process(["directory", str(contacts)])
    row("directory", f"sync of {contacts:,} generated contacts, over a full cache",
        f"{figures['directory.sync_s']:.2f} s",
        f"into an empty cache: {figures['directory.first_sync_s']:.2f} s")
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
    figures = in_process(["history", "10000"])
    row("history", "keeping a turn (the line and its answer, each a transaction)",
        f"p50 {figures['history.turn_p50_ms']:.3f} ms, p99 {figures['history.turn_p99_ms']:.3f} ms")
    row("history", "history search over 10,000 conversations, 320 queries",
        f"p50 {figures['history.search_p50_ms']:.2f} ms, p99 {figures['history.search_p99_ms']:.2f} ms")


# One-shot searches: whole city names, a street, a word of the offices' names, prefixes, Cyrillic.
# Since #15 also a Cyrillic city and an exonym (no typo: FTS5 answers a one-shot search of a
# large directory, without typos, and a search that finds nothing exits 1).
# Since #34 the wrong keyboard layout (read again in the other), an office kind's acronym
# (the generated offices have no postcodes).
SEARCHES = ["Brno", "Masarykova", "office", "prah", "ostr", "бюро", "Брно", "Olmütz",
            "ghfuf", "OAMP praha"]


def one_shot_search(sizes, runs):
    """`migrant-chat contacts search WORD`, exec to exit, as a command-line user meets it:
    a cache (XDG_CACHE_HOME) holding N generated contacts, a new process per search."""
    print("6. One-shot directory search (exec to exit)", flush=True)
    for size in sizes:
        with tempfile.TemporaryDirectory() as home:
            env = environment(home)
            out = subprocess.run([BENCH, "fill-directory", home + "/cache/migrant-chat", str(size)],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                raise SystemExit(f"migrant-bench fill-directory failed: {out.stderr.strip()}")
            for query in SEARCHES:  # the first start opens the favourites, checks the cache
                exec_to_exit([CLIENT, "contacts", "search", query], env)
            times = []
            for _ in range(runs):
                for query in SEARCHES:
                    times.append(exec_to_exit([CLIENT, "contacts", "search", query], env)[0])
        row("search", f"`contacts search WORD`, exec to exit, {size:,} contacts "
            f"({len(SEARCHES)} queries x {runs} runs)",
            f"p50 {statistics.median(times) * 1000:.1f} ms, p90 {percentile(times, 0.9) * 1000:.1f} ms")


PLACES = ["Olomouc", "около Оломоуца", "u Brna", "49.59,17.25", "Letohrad"]


def places_section(sizes, runs):
    """`contacts near PLACE` and `contacts map`, exec to exit, beside `contacts search`
    on the same cache; and the place and map tables' size in the binary."""
    print("7. Offices near a place (exec to exit)", flush=True)
    geography = os.path.join(ROOT, "Sources", "MigrantChatCore", "Geography")
    files = sorted(os.listdir(geography))
    total = sum(os.path.getsize(os.path.join(geography, name)) for name in files)
    row("places", "bundled tables (" + ", ".join(files) + "), embedded in the binary",
        f"{total / 1024:.0f} KiB of {os.path.getsize(CLIENT) / 1024 / 1024:.1f} MiB")
    for size in sizes:
        with tempfile.TemporaryDirectory() as home:
            env = environment(home)
            if size:
                out = subprocess.run([BENCH, "fill-directory", home + "/cache/migrant-chat", str(size)],
                                     capture_output=True, text=True)
                if out.returncode != 0:
                    raise SystemExit(f"migrant-bench fill-directory failed: {out.stderr.strip()}")
            label = f"{size:,} contacts" if size else "the sample directory"
            commands = {
                "near": lambda place: [CLIENT, "contacts", "near", place],
                "search": lambda place: [CLIENT, "contacts", "search", "centre"],
                "map": lambda place: [CLIENT, "contacts", "map", place],
            }
            for place in PLACES:
                for make in commands.values():
                    exec_to_exit(make(place), env)
            times = {name: [] for name in commands}
            for _ in range(runs):
                for place in PLACES:
                    for name, make in commands.items():
                        times[name].append(exec_to_exit(make(place), env)[0])
            near = statistics.median(times["near"])
            search = statistics.median(times["search"])
            row("places", f"`contacts near PLACE`, exec to exit, {label} ({len(PLACES)} places x {runs} runs)",
                f"p50 {near * 1000:.1f} ms, p90 {percentile(times['near'], 0.9) * 1000:.1f} ms",
                f"`contacts search centre` p50 {search * 1000:.1f} ms", f"{near / search:.2f}x")
            row("places", f"`contacts map PLACE`, exec to exit, {label}",
                f"p50 {statistics.median(times['map']) * 1000:.1f} ms")


def reading_section():
    """A typed line read before it is sent (#48): per line, on the two labelled sets; and
    the word tables' size in the binary."""
    print("8. Reading a typed line", flush=True)
    folder = os.path.join(ROOT, "Tests", "MigrantChatIOTests", "Reading")
    sets = [os.path.join(folder, name) for name in ("genuine.tsv", "garbled.tsv")]
    figures = in_process(["reading"] + sets)
    tables = os.path.join(ROOT, "Sources", "CWordTables", "tables")
    total = sum(os.path.getsize(os.path.join(tables, name)) for name in os.listdir(tables))
    row("reading", "word tables (en, cs, ru, uk) included in the binary",
        f"{total / 1024 / 1024:.1f} MiB of {os.path.getsize(CLIENT) / 1024 / 1024:.1f} MiB")
    row("reading", "reading a line (921 labelled lines x 20), in process",
        f"p50 {figures['reading.p50_ms']:.3f} ms, p99 {figures['reading.p99_ms']:.3f} ms",
        "budget 1 ms at p99", f"{figures['reading.p99_ms']:.2f}x of it")
    row("reading", "the first line read (the tables' pages touched)", f"{figures['reading.first_ms']:.2f} ms")


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


def load_section(home, quick):
    """The load comparison (loadbench.py) against `serve`, and the real Rasa tier when installed."""
    env = environment(home)
    with Serve(home) as serve:
        install = rasa_install()
        if isinstance(install, str):
            row("load", "real Rasa tier", install)
            loadbench.load(row, CLIENT, env, home, serve.url, None, quick)
            return
        with RasaServer(home, *install) as rasa:
            if not rasa.ready:
                row("load", "real Rasa tier", "not measured: did not start: " + rasa.log_tail())
            loadbench.load(row, CLIENT, env, home, serve.url, rasa.url if rasa.ready else None, quick)


def socketio_section(home, runs):
    """The first answer and the turn over Rasa's socketio channel beside its REST channel, on the
    same Rasa, interleaved; and how its answers arrive (the numbers behind `--settle`)."""
    install = rasa_install()
    if isinstance(install, str):
        row("socketio", "socket.io beside REST on the Rasa tier", "", install)
        return
    print("7. socket.io beside REST on the same Rasa (the Rasa tier's server)", flush=True)
    with RasaServer(home, *install) as rasa:
        if not rasa.ready:
            row("socketio", "socket.io beside REST", "", "not measured: Rasa did not start: " + rasa.log_tail())
            return
        env = environment(home)
        chat = {channel: [CLIENT, "--server", rasa.url, "--channel", channel, "--lang", "en",
                          "--start-message", "hello", "--sender", "bench-" + channel]
                for channel in ("rest", "socketio")}
        firsts = {"rest": [], "socketio": []}
        for _ in range(2):  # warm-up
            for arguments in chat.values():
                exec_to_exit(arguments, env)
        for _ in range(runs):  # interleaved
            for channel, arguments in chat.items():
                firsts[channel].append(exec_to_exit(arguments, env, first_byte=True)[1] * 1000)
        rest, sio = statistics.median(firsts["rest"]), statistics.median(firsts["socketio"])
        row("socketio", f"exec to the first bot message, start message `hello`, pipe ({runs} runs, interleaved)",
            f"socketio median {sio:.1f} ms, p90 {percentile(firsts['socketio'], 0.9):.1f} ms",
            f"rest median {rest:.1f} ms, p90 {percentile(firsts['rest'], 0.9):.1f} ms",
            f"{sio / rest:.2f}x")
        lines = ["hello", "I need health insurance", "I need a flat in Brno", "debug"] * 10
        stdin = ("\n".join(lines) + "\n").encode()
        per_turn = {"rest": [], "socketio": []}
        for _ in range(3):
            for channel, arguments in chat.items():
                per_turn[channel].append(timed_run(arguments, env, stdin) * 1000 / (len(lines) + 1))
        rest, sio = min(per_turn["rest"]), min(per_turn["socketio"])
        row("socketio", f"one turn in a piped chat of {len(lines)} lines, exec included (best of 3)",
            f"socketio {sio:.1f} ms", f"rest {rest:.1f} ms", f"{sio / rest:.2f}x")
        python = os.path.join(RASA_CACHE, "rasa-venv", "bin", "python")
        gaps = subprocess.run([python, os.path.join(ROOT, "Tests", "SocketIO", "gaps.py"), rasa.url, "20"],
                              capture_output=True, text=True, timeout=300)
        if gaps.returncode != 0:
            row("socketio", "how answers arrive", "", "not measured: " + gaps.stderr[-200:])
            return
        figures = json.loads(gaps.stdout)
        ack = figures["ack_after_last_message_ms"]
        row("socketio", f"how Rasa's socketio answers arrive ({figures['answers']} answers, {figures['messages']} messages)",
            f"largest gap between two messages of one answer {figures['max_gap_ms']} ms",
            f"acknowledgement after the last message in {figures['acknowledged_after_messages']} of "
            f"{figures['with_messages']} ({ack['min']} to {ack['max']} ms)" if ack else "",
            f"--settle default 1 s = {1000 / figures['max_gap_ms']:.0f}x the largest gap" if figures["max_gap_ms"] else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, to check the script works")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--only", default="startup,turns,render,scale,memory,search,load,socketio,places,reading",
                        help="comma-separated sections (default: all)")
    parser.add_argument("--no-rasa", action="store_true",
                        help="skip `rasa shell` and the real Rasa server")
    options = parser.parse_args()
    runs, count, contacts, guides, seconds = (5, 300, 2000, 500, 2) if options.quick else (30, 5000, 100000, 10000, 10)
    search_sizes, search_runs = ((1000, 10000), 2) if options.quick else ((1000, 100000), 10)
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
        if "search" in only:
            one_shot_search(search_sizes, search_runs)
        if "load" in only:
            load_section(home, options.quick)
        if "socketio" in only:
            socketio_section(home, runs)
        if "places" in only:
            places_section((0,) + search_sizes, search_runs)
        if "reading" in only:
            reading_section()
    table = ["| section | what | migrant-chat | alternative | ratio |", "|---|---|---|---|---|"]
    table += [f"| {s} | {w} | {m} | {o} | {r} |" for s, w, m, o, r in rows]
    print()
    print("\n".join(table))
    if options.markdown:
        with open(options.markdown, "w") as out:
            out.write(header + "\n\n" + "\n".join(table) + "\n")


if __name__ == "__main__":
    main()
