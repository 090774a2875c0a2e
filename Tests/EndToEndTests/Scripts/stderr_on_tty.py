"""Runs a command with stderr on a pseudo-terminal (stdout and stdin pipes), as a
person running it at a terminal with its output redirected would; prints its
stdout, then what the terminal received, to our stdout and stderr; exits as it did."""
import os
import pty
import select
import subprocess
import sys

master, slave = pty.openpty()
process = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=slave)
os.close(slave)
screen = b""
while True:
    ready, _, _ = select.select([master], [], [], 30)
    if not ready:
        break
    try:
        chunk = os.read(master, 4096)
    except OSError:  # the other end closed
        break
    if not chunk:
        break
    screen += chunk
output = process.stdout.read()
process.wait()
sys.stdout.write(output.decode("utf-8", "replace"))
sys.stderr.write(screen.decode("utf-8", "replace"))
sys.exit(process.returncode)
