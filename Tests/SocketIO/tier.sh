#!/usr/bin/env bash
# `make test`'s socket.io tier: the built binary against Tests/SocketIO/standin.py, a
# python-socketio server that plays what deployments do (standin_tests.py).
#
# It needs no Rasa, so it runs on its own: a venv under ~/.cache/migrant-chat/ (reused,
# named by the hash of requirements.txt, so a new pin makes a new one) with the system
# python3 and the pinned python-socketio and aiohttp from requirements.txt. Without
# python3, a venv or the packages, it says so in one loud line, records the skip for
# make test's closing line (as rasa-tier.sh does) and exits 0.
set -euo pipefail
binary=${1:-.build/debug/migrant-chat}
here=$(cd "$(dirname "$0")" && pwd)
requirements=$here/requirements.txt
cache=${MIGRANT_CHAT_SOCKETIO_CACHE:-$HOME/.cache/migrant-chat}
venv=$cache/socketio-venv-$(sha256sum "$requirements" | cut -c1-12)

skip() {
  echo "!!!!! SOCKET.IO TIER SKIPPED: $1 !!!!!"
  # make test names every skipped tier in its closing line.
  [ -z "${MIGRANT_CHAT_SKIPPED:-}" ] || echo "socket.io stand-in: $1" >>"$MIGRANT_CHAT_SKIPPED"
  exit 0
}

command -v python3 >/dev/null 2>&1 || skip "no python3"
if ! "$venv/bin/python" -c 'import socketio, aiohttp' >/dev/null 2>&1; then
  echo "== installing python-socketio and aiohttp into $venv (once)"
  rm -rf "$venv"
  mkdir -p "$cache"
  python3 -m venv "$venv" || skip "cannot create a venv with $(command -v python3) (python3-venv?)"
  installed=""
  for attempt in 1 2 3; do
    if "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"; then
      installed=yes
      break
    fi
    echo "pip install failed (attempt $attempt); retrying"
    sleep $((attempt * 5))
  done
  if [ -z "$installed" ]; then
    rm -rf "$venv"
    skip "pip install -r Tests/SocketIO/requirements.txt failed three times"
  fi
fi
echo "== socket.io: the stand-in's deployments (silent, dropped, late, flood, odd ids, maxPayload, hostile, JWT, no socket.io, Ctrl-C)"
"$venv/bin/python" "$here/standin_tests.py" "$binary" "$venv/bin/python"
