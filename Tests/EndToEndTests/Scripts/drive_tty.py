"""Drives migrant-chat on a pseudo-terminal, as a person would type.

Usage: drive_tty.py BINARY SERVER_URL HOME_DIR [SCENARIO [ARGS...]]
SCENARIO is `person` (the default: a conversation with the scenario bot) or
`fallback` (the server cannot be reached; the offline assistant is offered).
Prints 'ok' and exits 0 when every step saw what it expected; otherwise
prints the step and the screen so far, and exits 1.
"""
import os, pty, select, sys, time

binary, server, home = sys.argv[1:4]
scenario = sys.argv[4] if len(sys.argv) > 4 else "person"
extra = sys.argv[5:]
env = {
    "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config",
    "TERM": "xterm", "LANG": "C", "COLUMNS": "80", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
}
if scenario == "person":
    # An overgrown history: trimmed (atomically) to the last 1,000 lines at start.
    os.makedirs(home + "/state/migrant-chat", exist_ok=True)
    with open(home + "/state/migrant-chat/history", "w", encoding="utf-8") as old:
        old.write("".join("old line %d\n" % n for n in range(1200)))
    os.chmod(home + "/state/migrant-chat/history", 0o600)

pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--server", server, "--lang", "en"] + extra, env)

screen = b""

def expect(text, seconds=10):
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
    screen = screen[screen.index(needle) + len(needle):]

def fail(reason):
    print("FAILED:", reason)
    print(screen.decode("utf-8", "replace"))
    sys.exit(1)

def type_(text):
    os.write(fd, text.encode())

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
    type_("2\r")                    # the menu's buttons still apply after the cancel
    expect("echo: /housing (en)")
    expect("you> ")
    type_("\x04")                   # Ctrl-D leaves
    _, status = os.waitpid(pid, 0)
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

def fallback():
    expect("cannot be reached.")
    expect("[y/N] ")
    type_("y\r")
    expect("Switched to the offline assistant.")
    expect("What do you need help with?")
    expect("you> ")
    type_("2\r")
    expect("Health insurance: choose a guide.")
    expect("you> ")
    type_("\x04")
    _, status = os.waitpid(pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("exit status %r" % status)
    print("ok")

def declined():
    expect("cannot be reached.")
    expect("[y/N] ")
    type_("n\r")
    expect("Staying with the server")
    expect("you> ")
    type_("hello\r")            # asked once: a second failure is just an error
    expect("connection refused")
    expect("you> ")
    if b"cannot be reached" in screen:
        fail("asked twice")
    type_("\x04")
    os.waitpid(pid, 0)
    print("ok")

def never():
    expect("connection refused")
    expect("you> ")
    if b"cannot be reached" in screen:
        fail("offered the offline assistant with --offline-fallback never")
    type_("\x04")
    os.waitpid(pid, 0)
    print("ok")

{"person": person, "fallback": fallback, "declined": declined, "never": never}[scenario]()
