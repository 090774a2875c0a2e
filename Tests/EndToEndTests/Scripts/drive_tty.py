"""Drives migrant-chat on a pseudo-terminal, as a person would type.

Usage: drive_tty.py BINARY SERVER_URL HOME_DIR [SCENARIO [ARGS...]]
SCENARIO is `person` (the default: a conversation with the scenario bot),
`resize` (the terminal shrinks from 100 to 50 columns mid-chat: later answers
wrap at 50; resized while the bot answers, the next prompt is drawn once), `terminate` (SIGTERM at a prompt with text typed, SIGHUP while
the bot is answering: exit 128 + n, the terminal's modes and bracketed paste
put back),
`fallback`, `declined` or `never` (the server cannot be reached; the offline
assistant is offered), or `killed` (kill -9 while the history is trimmed at
start and while lines are appended; every next start must read it).
Prints 'ok' and exits 0 when every step saw what it expected; otherwise
prints the step and the screen so far, and exits 1.
"""
import fcntl, os, pty, random, re, select, signal, struct, sys, termios, time

binary, server, home = sys.argv[1:4]
scenario = sys.argv[4] if len(sys.argv) > 4 else "person"
extra = sys.argv[5:]
env = {
    "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config",
    "TERM": "xterm", "LANG": "C", "COLUMNS": "80", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
    # The watchdog that ends a chat whose main loop did not, after a termination signal,
    # waits ten minutes here: an exit seen within this script's bounds is the main loop's.
    "MIGRANT_CHAT_GRACE_SECONDS": "600",
}
# What waits for a sign from the chat gives up after this long: only a run that would
# hang is ended by it (a loaded machine's whole suite once took 700 s).
HANG_GUARD = 300
if scenario == "person":
    # An overgrown history: trimmed (atomically) to the last 1,000 lines at start.
    os.makedirs(home + "/state/migrant-chat", exist_ok=True)
    with open(home + "/state/migrant-chat/history", "w", encoding="utf-8") as old:
        old.write("".join("old line %d\n" % n for n in range(1200)))
    os.chmod(home + "/state/migrant-chat/history", 0o600)

def set_size(descriptor, columns):
    fcntl.ioctl(descriptor, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))

def start(arguments, columns=None):
    global pid, fd, screen, seen
    screen = b""
    seen = b""
    pid, fd = pty.fork()
    if pid == 0:
        child_env = dict(env)
        if columns:
            set_size(0, columns)
            del child_env["COLUMNS"]   # the width comes from the terminal
        os.execve(binary, [binary] + arguments + ["--lang", "en"] + extra, child_env)

if scenario not in ("killed", "resize"):
    start(["--server", server])

def expect(text, seconds=HANG_GUARD):
    global screen
    deadline = time.time() + seconds
    needle = text.encode()
    while needle not in screen:
        remaining = deadline - time.time()
        if remaining <= 0:
            fail("expected %r" % text)
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                fail("the program closed the terminal while waiting for %r" % text)
            screen += chunk
    # Consume what was matched so the next expectation looks at new output.
    global seen
    seen = screen[:screen.index(needle)]
    screen = screen[screen.index(needle) + len(needle):]

def fail(reason):
    print("FAILED:", reason)
    print(screen.decode("utf-8", "replace"))
    sys.exit(1)

def type_(text):
    os.write(fd, text.encode())

def ctrl_d_until_exit():
    """Ctrl-D at the prompt, and the chat's exit as the sign waited for: (status, what it
    drew meanwhile, whether Ctrl-D had to be typed again).

    A Ctrl-D that reaches the terminal before readline has put it in raw mode (the
    answer still being printed) is the line discipline's end-of-file for no reader, and
    is lost: on a fast machine the chat then waited at its prompt and this script in
    waitpid, for ever (CI's 90 minutes). So Ctrl-D is typed again at each prompt drawn
    while the chat is alive, within a bound."""
    type_("\x04")
    deadline = time.time() + HANG_GUARD
    drawn = b""
    retyped = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status, drawn, retyped
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            fail("the chat did not end on Ctrl-D at its prompt: %r" % drawn[-300:])
        if select.select([fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            drawn += chunk
            if b"you> " in chunk:
                type_("\x04")       # the prompt is up now: the Ctrl-D before it was lost
                retyped = True

def leave():
    """Ctrl-D at the prompt: the chat ends with status 0, drawing no second prompt."""
    status, drawn, retyped = ctrl_d_until_exit()
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("exit status %r" % status)
    rest = b""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        rest += chunk
    if not retyped:
        rest = drawn + rest         # one Ctrl-D ended it: nothing it drew may be a prompt
    if b"> " in rest:
        fail("a prompt was drawn again after Ctrl-D: %r" % rest)
    print("ok")

def person():
    expect("Pick one")
    expect("you> ")
    type_("Hea\t")                 # Tab completes the button title
    expect("Health insurance")
    type_("\r")
    expect("Insurers:")
    expect("you> ")
    type_("привіт\r")               # Cyrillic under LANG=C: the client switches to C.UTF-8
    expect("echo: привіт (en)")
    expect("you> ")
    type_("slow\r")
    expect("waiting for the bot")   # shown once after ~300 ms on a terminal
    type_("\x03")                   # Ctrl-C while waiting: cancel, keep the conversation
    expect("Cancelled. The conversation is still here.")
    expect("you> ")
    type_("\x03")                   # Ctrl-C at an empty prompt
    expect("To leave, type /quit or press Ctrl-D.")
    expect("you> ")
    type_("half typed\x03")         # Ctrl-C with text: the line is cleared, no hint
    expect("you> ")
    type_(" private line\r")        # sent, but not kept in history
    expect("echo: private line (en)")
    expect("you> ")
    type_("2\r")                    # the latest answer (an echo) offered no buttons: text
    expect("echo: 2 (en)")
    expect("you> ")
    status = ctrl_d_until_exit()[0]  # Ctrl-D leaves
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("exit status %r" % status)

    history = home + "/state/migrant-chat/history"
    lines = open(history, encoding="utf-8").read().splitlines()
    mode = os.stat(history).st_mode & 0o777
    if "привіт" not in lines or "Health insurance" not in lines:
        fail("history lacks typed lines: %r" % lines)
    if any("private" in line for line in lines) or any("half typed" in line for line in lines):
        fail("history kept a private or cancelled line: %r" % lines)
    if mode != 0o600:
        fail("history mode %o" % mode)
    if "old line 1199" not in lines or "old line 0" in lines or len(lines) > 1010:
        fail("history not trimmed to the last 1,000 lines: %d lines" % len(lines))
    print("ok")

def once_with_reason():
    """The reason and the offer are one message: "Cannot reach … refused." is not said twice."""
    expect("Connecting to ")
    expect("connection refused")
    expect("Continue with the offline assistant")
    if b"Cannot reach" in screen or b"Connected to" in screen:
        fail("the failure was said twice, or the banner claimed a connection")

def fallback():
    once_with_reason()
    expect("[y/N] ")
    type_("y\r")
    expect("Switched to the offline assistant.")
    expect("What do you need help with?")
    expect("you> ")
    type_("2\r")
    expect("Health insurance: choose a guide.")
    expect("you> ")
    leave()

def declined():
    once_with_reason()
    expect("[y/N] ")
    type_("n\r")
    expect("Staying with the server")
    expect("you> ")
    type_("hello\r")            # asked once: a second failure is just an error
    expect("connection refused")
    expect("you> ")
    if b"Continue with the offline assistant" in screen:
        fail("asked twice")
    ctrl_d_until_exit()
    print("ok")

def never():
    expect("connection refused")
    expect("you> ")
    if b"Continue with the offline assistant" in screen:
        fail("offered the offline assistant with --offline-fallback never")
    ctrl_d_until_exit()
    print("ok")

def killed():
    history = home + "/state/migrant-chat/history"
    os.makedirs(os.path.dirname(history), exist_ok=True)
    old = ["old line %d" % n for n in range(300000)]
    with open(history, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in old))
    os.chmod(history, 0o600)
    known = set(old)
    random.seed(7)

    def check(when):
        text = open(history, encoding="utf-8").read()
        if text and not text.endswith("\n"):
            fail("%s: the history ends in half a line: %r" % (when, text[-40:]))
        strange = [line for line in text.splitlines() if line not in known]
        if strange:
            fail("%s: lines that were never typed: %r" % (when, strange[:3]))
        if os.stat(history).st_mode & 0o777 != 0o600:
            fail("%s: history mode %o" % (when, os.stat(history).st_mode & 0o777))
        return text.splitlines()

    def kill_now():
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)

    # kill -9 at random moments of start-up, while 300,000 lines are read and trimmed.
    for round_ in range(20):
        start(["--offline"])
        delay = random.uniform(0, 0.15)
        time.sleep(delay)
        kill_now()
        check("killed %d ms into start-up (round %d)" % (delay * 1000, round_))
    # kill -9 while lines are typed and appended, one write each.
    typed = 0
    for round_ in range(10):
        start(["--offline"])
        expect("you> ")
        for _ in range(random.randint(1, 30)):
            line = "typed %d" % typed
            known.add(line)
            typed += 1
            type_(line + "\r")
        time.sleep(random.uniform(0, 0.05))
        kill_now()
        check("killed while typing (round %d)" % round_)
    # A trim killed between writing its temporary file and renaming it leaves
    # .history.<pid>.tmp: plant one of a process that is gone (the last one).
    with open("%s/.history.%d.tmp" % (os.path.dirname(history), pid), "w") as stale:
        stale.write("old line 1\nhalf a li")
    # The same for any atomic write, such as the state file's.
    with open("%s/.state.json.%d.tmp" % (os.path.dirname(history), pid), "w") as stale:
        stale.write('{"send')
    # The next start reads it without complaint, and the last lines are there.
    start(["--offline"])
    expect("you> ")
    if b"rror" in screen or b"annot" in screen:
        fail("the start after the kills complained")
    status = ctrl_d_until_exit()[0]
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("exit status %r" % status)
    lines = check("after a clean start")
    if len(lines) > 1000 or not lines[-1].startswith("typed"):
        fail("history not trimmed, or typed lines lost: %d lines, last %r" % (len(lines), lines[-1:]))
    leftovers = [n for n in os.listdir(os.path.dirname(history)) if n.endswith(".tmp")]
    if leftovers:
        fail("temporary files left behind: %r" % leftovers)
    print("ok")

def reply_lines(text):
    """The bot's echo as the terminal shows it: lines from 'echo:' on, escapes removed."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text.decode("utf-8", "replace"))
    plain = plain[plain.index("echo: "):]
    return [line for line in plain.replace("\r", "").split("\n") if line.strip()]

def resize():
    words = " ".join("w%02d" % n for n in range(1, 41))
    start(["--server", server], columns=100)
    expect("you> ")
    type_(words + "\r")
    expect("(en)")
    wide = reply_lines(seen + b"(en)")
    if max(len(line) for line in wide) <= 50:
        fail("at 100 columns the answer was wrapped narrower: %r" % wide)
    expect("you> ")
    set_size(fd, 50)                 # the kernel sends SIGWINCH to the chat
    # The chat hears SIGWINCH on its own thread: an answer asked for at once may come
    # before it did on a busy machine. The sign is an answer rewrapped; asked again
    # until one is, within a bound that only ends a run that would hang.
    deadline = time.time() + HANG_GUARD
    while True:
        type_(words + "\r")
        expect("(en)")
        narrow = reply_lines(seen + b"(en)")
        if max(len(line) for line in narrow) <= 50 and len(narrow) >= 3:
            break
        if time.time() > deadline:
            fail("after shrinking to 50 columns the answer was not rewrapped: %r" % narrow)
        expect("you> ")
    expect("you> ")
    # Resized while the bot answers (no line being read): the next prompt is drawn once.
    type_("slow\r")
    expect("waiting for the bot")
    set_size(fd, 70)
    expect("too late")
    expect("you> ")
    type_("typed")
    expect("typed")
    # The bug's mark: the last line's prompt drawn again before this line began (readline
    # turns bracketed paste on as it starts a line). A resize that a loaded machine only
    # took once the line had begun redraws that line, which is right: no "\x1b[?2004h" then.
    if b"you> " in seen and b"\x1b[?2004h" in seen:
        fail("the prompt was drawn twice after a resize while the bot answered: %r" % seen)
    type_("\x15")                   # Ctrl-U: the line is empty again for Ctrl-D
    leave()

def completion():
    """Tab completes /lang codes and the ids of the offices just shown."""
    expect("Pick one")
    expect("you> ")
    type_("1\r")
    expect("Insurers:")
    expect("you> ")
    type_("/unfav 1\t")          # both cards' ids share "13850": completed that far
    expect("3850")
    type_("4\r")
    expect("was not a favourite")
    expect("you> ")
    type_("/lang u\t")
    expect("/lang uk")
    type_("\r")
    expect("Мову змінено: українська.")
    expect("ви> ")
    leave()

def drain():
    """Everything the program writes until it closes the terminal."""
    global screen
    while True:
        ready, _, _ = select.select([fd], [], [], HANG_GUARD)
        if not ready:
            fail("the program did not end")
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return
        if not chunk:
            return
        screen += chunk

def terminate():
    canonical = termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ECHO)
    for number, when in ((signal.SIGTERM, "prompt"), (signal.SIGHUP, "turn")):
        if when == "turn":
            start(["--server", server])
        expect("you> ")
        if when == "prompt":
            type_("half typed")
            expect("half typed")
        else:
            type_("slow\r")
            expect("waiting for the bot")
        os.kill(pid, number)
        drain()
        _, status = os.waitpid(pid, 0)
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 128 + number:
            fail("%s: exit status %r, expected %d" % (when, status, 128 + number))
        # The main loop ended it, not the watchdog: that waits 600 s here (the
        # environment above), longer than drain() does. (This was a 2.5 s limit on the
        # wall clock, which a loaded machine can miss.)
        if screen.rfind(b"\x1b[?2004h") > screen.rfind(b"\x1b[?2004l"):
            fail("%s: bracketed paste left on" % when)
        if termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ECHO) != canonical:
            fail("%s: the terminal's modes were not restored" % when)
        os.close(fd)
    print("ok")

{"person": person, "fallback": fallback, "declined": declined, "never": never,
 "killed": killed, "resize": resize, "terminate": terminate, "completion": completion}[scenario]()
