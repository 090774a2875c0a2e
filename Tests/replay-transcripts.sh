#!/usr/bin/env bash
# The transcript tier of `make test`: Transcripts/offline replayed twice, in-process
# against the offline assistant, and over HTTP against `migrant-chat serve`.
set -euo pipefail
binary=${1:-.build/debug/migrant-chat}
reports=${2:-.build/transcripts}
mkdir -p "$reports"
home=$(mktemp -d)
export XDG_CACHE_HOME=$home/cache XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config
export NO_COLOR=1 COLUMNS=80
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$home"' EXIT

echo "== transcripts, offline assistant in-process"
"$binary" replay Transcripts/offline --offline --junit "$reports/offline.xml"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --sample --port "$port" 2>"$reports/serve.log" &
pid=$!
# The sign that serve is up is its line on stderr; a busy machine may take long to
# start it, so the wait is bounded only to end a run that would hang.
for _ in $(seq 1200); do
  grep -q "http://127.0.0.1:$port" "$reports/serve.log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { echo "serve ended: $(cat "$reports/serve.log")"; exit 1; }
  sleep 0.1
done
grep -q "http://127.0.0.1:$port" "$reports/serve.log" \
  || { echo "serve did not start in 120 s: $(cat "$reports/serve.log")"; exit 1; }
echo "== transcripts, over HTTP against migrant-chat serve (port $port)"
"$binary" replay Transcripts/offline --server "http://127.0.0.1:$port" --jobs 4 --junit "$reports/serve.xml"
