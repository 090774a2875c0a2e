#!/usr/bin/env python3
"""The socket.io client against what real deployments do (Tests/SocketIO/standin.py).

Usage: standin_tests.py BINARY PYTHON   (PYTHON: one with python-socketio and aiohttp,
Tests/SocketIO/tier.sh's venv). Each case starts the stand-in in one mode on a free port,
runs the built binary as a user or a bot team would, and checks what it printed, its exit
status, and that it never waited past its timeout. Exits 1 if any case failed.
"""
import json, os, pty, select, signal, socket, subprocess, sys, tempfile, threading, time

BINARY, PYTHON = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standin.py")
HOME = tempfile.mkdtemp(prefix="sio-tests-")
ENV = dict(os.environ, XDG_STATE_HOME=HOME + "/state", XDG_CACHE_HOME=HOME + "/cache",
           XDG_CONFIG_HOME=HOME + "/config", NO_COLOR="1", COLUMNS="100", LANG="C.UTF-8")
for key in ("MIGRANT_CHAT_SERVER", "MIGRANT_CHAT_TOKEN", "MIGRANT_CHAT_CHANNEL", "MIGRANT_CHAT_LANG"):
    ENV.pop(key, None)
failures = 0
passes = 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Standin:
    def __init__(self, mode, *extra):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([PYTHON, STANDIN, "--port", str(self.port), "--mode", mode, *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise SystemExit(f"the stand-in did not start in mode {mode}")

    def wait_for(self, line, limit=120):
        """Until the stand-in prints `line` (a sign of where the client is); False if never."""
        deadline = time.time() + limit
        while time.time() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if ready:
                got = self.process.stdout.readline()
                if not got:
                    return False
                if got.strip() == line:
                    return True
        return False

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait(10)


def chat(url, lines, *options, env=None, pause=None, before=None):
    """The chat in a pipe; `pause` = {line index: seconds to wait before sending it};
    `before` = {line index: a call that returns once it may be sent}."""
    started = time.time()
    process = subprocess.Popen([BINARY, "--server", url, "--channel", "socketio", "--start-message", "",
                                "--offline-fallback", "never", *options], env=env or ENV,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for index, line in enumerate(lines):
        if pause and index in pause:
            process.stdin.flush()
            time.sleep(pause[index])
        if before and index in before:
            process.stdin.flush()
            before[index]()
        process.stdin.write((line + "\n").encode())
        process.stdin.flush()
    process.stdin.close()
    process.stdin = None  # closed: communicate only reads
    out, err = process.communicate(timeout=120)
    return process.returncode, out.decode(), err.decode(), time.time() - started


def chat_peak_memory(url, lines, *options):
    """As chat(), with the binary's own peak resident memory in MB (wait4's ru_maxrss,
    which counts this one process, not the stand-in)."""
    started = time.time()
    process = subprocess.Popen([BINARY, "--server", url, "--channel", "socketio", "--start-message", "",
                                "--offline-fallback", "never", *options], env=ENV,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    streams = {}
    readers = [threading.Thread(target=lambda name, stream: streams.__setitem__(name, stream.read()),
                                args=(name, stream)) for name, stream in
               (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    process.stdin.write("".join(line + "\n" for line in lines).encode())
    process.stdin.close()
    # Not a limit the test asserts: only so that a client that never gives up (as before
    # the cap: still busy 12 minutes on) cannot hold the tier for ever.
    watchdog = threading.Timer(600, process.kill)
    watchdog.start()
    _, status, usage = os.wait4(process.pid, 0)
    watchdog.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return (process.returncode, streams["out"].decode(), streams["err"].decode(), time.time() - started,
            usage.ru_maxrss / 1024)


def check(name, condition, detail=""):
    global failures, passes
    print(("ok    " if condition else "FAIL  ") + name + ("" if condition else f"\n      {detail[-1500:]}"))
    if condition:
        passes += 1
    else:
        failures += 1


with Standin("normal") as bot:
    status, out, err, _ = chat(bot.url, ["hello", "1", "/echo_meta", "/new", "/echo_sender", "/echo_sender"],
                               "--lang", "ru")
    check("normal: the greeting in Russian, its quick replies numbered", status == 0
          and "Здравствуйте! С чем вам помочь?" in out and "[1] Медицинская страховка" in out
          and "[2] Жильё" in out, out + err)
    check("normal: a typed number picks a quick reply; paragraphs, card and image shown",
          "Foreigners need health insurance." in out and "Ask the insurer." in out
          and "#138512" in out and "https://example.com/insurance-card.png" in out, out)
    check("normal: the language travels in the metadata", '{"language": "ru"}' in out, out)
    senders = [line for line in out.splitlines() if line.startswith("sender=")]
    check("normal: /new opens a new conversation (another session id), kept across turns",
          len(senders) == 2 and senders[0] == senders[1] and len(senders[0]) > 10, out)
    status, out, err, _ = chat(bot.url, ["hello", "2"], "--json")
    events = [json.loads(line) for line in out.splitlines()]
    bot_events = [event for event in events if event.get("type") == "bot"]
    check("normal: --json events, buttons numbered", status == 0 and bot_events[0]["buttons"][1]["number"] == 2
          and bot_events[-1]["text"] == "Look for a flat.", out + err)
    status, out, err, _ = chat(bot.url, ["/restart", "hello"])
    check("normal: /restart's empty answer is quiet, and the chat goes on",
          status == 0 and "did not answer" not in out and "Hello!" in out
          and "session_persistence" not in out + err, out + err)
    transcript = os.path.join(HERE, "standin.yaml")
    result = subprocess.run([BINARY, "replay", transcript, "--server", bot.url, "--channel", "socketio"],
                            env=ENV, capture_output=True, text=True, timeout=120)
    check("normal: a transcript replays green over socket.io", result.returncode == 0
          and "1 passed, 0 failed" in result.stdout, result.stdout + result.stderr)
    record = os.path.join(HOME, "recorded.yaml")
    status, out, err, _ = chat(bot.url, ["hello", "1", "/housing"], "--record", record)
    result = subprocess.run([BINARY, "replay", record, "--server", bot.url, "--channel", "socketio"],
                            env=ENV, capture_output=True, text=True, timeout=120)
    check("normal: --record over socket.io replays green", status == 0 and result.returncode == 0,
          out + err + result.stdout + result.stderr)
    result = subprocess.run([BINARY, "replay", transcript, "--server", bot.url, "--channel", "socketio",
                             "--rate", "4", "--duration", "3", "--report", os.path.join(HOME, "load.json")],
                            env=ENV, capture_output=True, text=True, timeout=120)
    report = json.load(open(os.path.join(HOME, "load.json"))) if os.path.exists(os.path.join(HOME, "load.json")) else {}
    check("normal: load over socket.io, one connection per conversation, the same report",
          result.returncode == 0 and report.get("failed", 1) == 0
          and report.get("passed", 0) >= 8 and report.get("conversations") == report.get("passed"), result.stdout + result.stderr + json.dumps(report)[:500])
    result = subprocess.run([BINARY, "explore", "--server", bot.url, "--channel", "socketio", "--start", "hello",
                             "--lang", "en"], env=ENV, capture_output=True, text=True, timeout=120)
    check("normal: explore walks the buttons over socket.io", "Housing" in result.stdout
          and result.returncode in (0, 1), result.stdout + result.stderr)

with Standin("custom-events", "--user-event", "ask", "--bot-event", "say", "--metadata-key", "meta",
             "--path", "/bot/sio") as bot:
    status, out, err, _ = chat(bot.url, ["/echo_meta"], "--user-event", "ask", "--bot-event", "say",
                               "--metadata-key", "meta", "--socket-path", "/bot/sio/", "--lang", "uk")
    check("options: event names, metadata key and path as the server set them",
          status == 0 and '{"language": "uk"}' in out, out + err)
    status, out, err, took = chat(bot.url, ["hello"], "--socket-path", "/bot/sio", "--timeout", "2")
    check("options: a wrong user event times out naming --user-event first, exit 1", status == 1
          and took < 10 and "another event name (--user-event" in out + err, out + err)
    status, out, err, took = chat(bot.url, ["hello"], "--socket-path", "/bot/sio", "--user-event", "ask")
    check("options: a wrong bot event is named (events named say, not bot_uttered), exit 1",
          status == 1 and "events named say, not bot_uttered" in out + err, out + err)

with Standin("silent") as bot:
    record = os.path.join(HOME, "silent.yaml")
    status, out, err, took = chat(bot.url, ["hello", "/housing"], "--timeout", "5", "--record", record)
    check("silent (the session_persistence trap): said, with the likely cause, exit 1",
          status == 1 and "session_persistence" in out + err and took < 10, out + err)
    recorded = open(record).read() if os.path.exists(record) else ""
    check("silent: --record keeps no empty answer as the bot's", "user: hello" not in recorded, recorded)
    result = subprocess.run([BINARY, "replay", os.path.join(HERE, "standin.yaml"), "--server", bot.url,
                             "--channel", "socketio"], env=ENV, capture_output=True, text=True, timeout=60)
    check("silent: replay's failure says why (session_persistence), not only 'missing'",
          result.returncode == 1 and "session_persistence" in result.stdout, result.stdout + result.stderr)

down = f"http://127.0.0.1:{free_port()}"
result = subprocess.run([BINARY, "replay", os.path.join(HERE, "standin.yaml"), "--server", down,
                         "--channel", "rest,socketio"], env=ENV, capture_output=True, text=True, timeout=60)
check("comparison: a server down on both channels fails (exit 1), never 'answered alike'",
      result.returncode == 1 and "FAILED" in result.stdout and "over socketio" in result.stdout
      and "answered alike at every step" not in result.stdout, result.stdout + result.stderr)
result = subprocess.run([BINARY, "replay", os.path.join(HERE, "standin.yaml"), "--server", down,
                         "--channel", "rest,socketio", "--junit", os.path.join(HOME, "j.xml")],
                        env=ENV, capture_output=True, text=True, timeout=60)
check("comparison: an option it does not do is refused (exit 2), not ignored",
      result.returncode == 2 and "--junit" in result.stderr, result.stdout + result.stderr)

for mode in ("http400", "http404"):
    with Standin(mode) as bot:
        status, out, err, took = chat(bot.url, ["hello"], "--timeout", "5")
        check(f"{mode}: no socket.io here, a translated error, exit 1",
              status == 1 and "does not answer socket.io" in err and took < 5, out + err)
    with Standin(mode) as bot:
        status, out, err, _ = chat(bot.url, ["hello"], "--lang", "uk")
        check(f"{mode}: the error in Ukrainian", status == 1 and "не відповідає через socket.io" in err, err)

with Standin("hang") as bot:
    status, out, err, took = chat(bot.url, ["hello"], "--timeout", "2")
    check("hang: an error within the timeout, never a hang", status == 1 and took < 8
          and "did not answer within 2 seconds" in err, f"{took:.1f}s " + out + err)

with Standin("jwt") as bot:
    status, out, err, took = chat(bot.url, ["hello"])
    check("jwt without a token: refused, with what to set, exit 1",
          status == 1 and "refused the socket.io connection" in err and "MIGRANT_CHAT_TOKEN" in err, out + err)
    status, out, err, _ = chat(bot.url, ["hello"], env=dict(ENV, MIGRANT_CHAT_TOKEN="wrong"))
    check("jwt with a wrong token: says to check the token that was sent", status == 1
          and "with the token in MIGRANT_CHAT_TOKEN" in err, out + err)
    status, out, err, _ = chat(bot.url, ["hello"], env=dict(ENV, MIGRANT_CHAT_TOKEN="secret-token"))
    check("jwt with MIGRANT_CHAT_TOKEN: the token goes in the connect request", status == 0 and "Hello!" in out,
          out + err)

with Standin("drop") as bot:
    status, out, err, _ = chat(bot.url, ["hello", "/insurance", "/housing"], pause={2: 0.5})
    check("drop mid-answer: what arrived is shown, said closed; the next message reconnects",
          "Foreigners need health insurance." in out and "closed during the answer" in out
          and "was lost and is back" in out and "Look for a flat." in out, out + err)

with Standin("late") as bot:
    status, out, err, _ = chat(bot.url, ["/insurance", "/housing"], "--json",
                               before={1: lambda: bot.wait_for("late delivered")})
    events = [json.loads(line) for line in out.splitlines()]
    late = [event for event in events if event.get("late")]
    check("late: a message after the answer is kept and shown with the next, marked late",
          len(late) == 1 and late[0].get("image") == "https://example.com/insurance-card.png"
          and events[-1].get("text") == "Look for a flat.", out + err)

with Standin("late") as bot:
    state = os.path.join(HOME, "late-new-state")
    # "1" is the greeting's first button (/insurance), whose image comes late. (Lines, not
    # /commands, so that each conversation begins and is kept in the history.)
    status, out, err, _ = chat(bot.url, ["hello", "1", "/new", "hello"], "--json",
                               env=dict(ENV, XDG_STATE_HOME=state),
                               before={2: lambda: bot.wait_for("late delivered")})
    events = [json.loads(line) for line in out.splitlines()]
    check("late after /new: the previous conversation's late message is not shown in the new one",
          status == 0 and not any(event.get("late") for event in events) and "insurance-card.png" not in out
          and "Ask the insurer." in out and out.count("Hello! What do you need help with?") == 2, out + err)
    kept = ""
    for number in ("1", "2"):
        kept += subprocess.run([BINARY, "history", "export", number, "--json"], env=dict(ENV, XDG_STATE_HOME=state),
                               capture_output=True, text=True, timeout=60).stdout
    check("late after /new: nor kept in the history, in either conversation (dropped: docs/socketio.md)",
          kept.count("Hello! What do you need help with?") == 2 and "Ask the insurer." in kept
          and "insurance-card.png" not in kept, kept[-1500:])

with Standin("flood") as bot:
    status, out, err, took, peak = chat_peak_memory(bot.url, ["hello"])
    print(f"      flood: peak {peak:.0f} MB, gave up after {took:.1f} s")
    check("flood (2 MB a poll, never acknowledged): the answer is too large, as over REST, exit 1",
          status == 1 and "sent an answer larger than 8 MiB" in err, out[-500:] + err[-1500:])
    check("flood: the client's memory stays bounded (peak under 150 MB)", peak < 150, f"peak {peak:.0f} MB")

with Standin("flood") as bot:
    status, out, err, _, _ = chat_peak_memory(bot.url, ["hello"], "--lang", "uk")
    check("flood: said in Ukrainian", status == 1 and "більшу за 8 МіБ" in err, err[-1500:])

with Standin("odd-sid") as bot:
    status, out, err, _ = chat(bot.url, ["hello", "/housing"])
    check("odd-sid: a session id with & # / + = is sent back as issued (escaped); the chat works",
          status == 0 and "Hello!" in out and "Look for a flat." in out, out + err)

with Standin("small-payload") as bot:
    status, out, err, _ = chat(bot.url, ["hello", "я" * 1500, "/housing"])
    said = " ".join((out + err).split())  # as wrapped at COLUMNS
    check("small-payload: a line past the server's maxPayload is not sent, and said so",
          "takes at most 2000 bytes at once (its maxPayload)" in said, said[-800:])
    check("small-payload: the connection stays; the next line is answered, no reconnection",
          "Hello!" in out and "Look for a flat." in out and "was lost" not in out, out + err)
    status, out, err, _ = chat(bot.url, ["я" * 1500], "--lang", "ru")
    said = " ".join((out + err).split())
    check("small-payload: said in Russian", "не больше 2000 байт за раз" in said, said[-800:])

with Standin("background") as bot:
    status, out, err, _ = chat(bot.url, ["/insurance"], "--json")
    bot_events = [json.loads(line) for line in out.splitlines() if '"type":"bot"' in line]
    check("background (acknowledged before the messages): the answer waits for them",
          status == 0 and len(bot_events) >= 3 and any("image" in event for event in bot_events), out + err)

with Standin("pings") as bot:
    status, out, err, _ = chat(bot.url, ["hello", "/housing"], pause={1: 4})
    check("pings every 0.5 s: answered, so the connection holds through a pause",
          status == 0 and "was lost and is back" not in out and "Look for a flat." in out, out + err)

with Standin("hostile") as bot:
    status, out, err, _ = chat(bot.url, ["hello"])
    check("hostile: shown without escapes or bidi controls; bad parts reported; the chat goes on",
          status == 0 and "end of hostile answer" in out and "\x1b" not in out and "\u202e" not in out
          and "\x9b" not in out and len(out) > 1_000_000 and "could not be shown" in out + err,
          out[-800:] + err[-800:])

# Ctrl-C during a turn cancels it and the chat goes on (a terminal: a pty).
with Standin("hang") as bot:
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(BINARY, [BINARY, "--server", bot.url, "--channel", "socketio", "--start-message", "",
                           "--timeout", "20", "--offline-fallback", "never"], ENV)
    screen = b""

    def read_for(seconds, until=None):
        global screen
        deadline = time.time() + seconds
        while time.time() < deadline and not (until and until in screen):
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    return

    read_for(5, b"> ")
    os.write(fd, b"hello\r")
    read_for(1.5)
    started = time.time()
    os.write(fd, b"\x03")
    read_for(5, b"ancel")
    cancelled_in = time.time() - started
    os.write(fd, b"/quit\r")
    read_for(5)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    text = screen.decode("utf-8", "replace")
    check("Ctrl-C cancels a socket.io turn at once; the chat goes on", "ancel" in text and cancelled_in < 3,
          text[-600:])

print(f"stand-in: {passes} passed, {failures} failed")
sys.exit(1 if failures else 0)
