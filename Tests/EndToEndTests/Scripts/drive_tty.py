"""Drives migrant-chat on a pseudo-terminal, as a person would type.

Usage: drive_tty.py BINARY SERVER_URL HOME_DIR
Prints 'ok' and exits 0 when every step saw what it expected; otherwise
prints the step and the screen so far, and exits 1.
"""
import os, pty, select, sys, time

binary, server, home = sys.argv[1:4]
env = {
    "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config",
    "TERM": "xterm", "LANG": "C", "COLUMNS": "80", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
}
pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--server", server, "--lang", "en"], env)

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
print("ok")
