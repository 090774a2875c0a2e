#!/usr/bin/env bash
# `make bench-serve`: requests per second and latency of `migrant-chat serve` on
# loopback, with 1 and 16 concurrent connections (wrk, from Debian). Prints figures.
set -euo pipefail
binary=${1:-.build/release/migrant-chat}
duration=${DURATION:-10s}
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$home"' EXIT
XDG_CACHE_HOME=$home/cache XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config \
  "$binary" serve --port "$port" 2>/dev/null &
pid=$!
for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/webhooks/rest/" >/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/webhooks/rest/webhook"
printf '%-40s %-12s %10s %10s %10s\n' "request" "connections" "req/s" "p50" "p99"
for message in "/start" 'how do I get health insurance' '/faq_item{\"id\":20}'; do
  for connections in 1 16; do
    threads=$(( connections < 2 ? 1 : 2 ))
    out=$(wrk -t"$threads" -c"$connections" -d"$duration" --latency -s "$here/post.lua" "$url" -- "$message")
    rate=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    printf '%-40s %-12s %10s %10s %10s\n' "$message" "$connections" "$rate" "$p50" "$p99"
  done
done
