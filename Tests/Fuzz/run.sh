#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets (Tests/Fuzz/FuzzTargets.swift over the core's
# sources, -sanitize=fuzzer,address) and runs each for FUZZ_SECONDS (default 60)
# from its committed seed corpus in Tests/Fuzz/corpus/<target>. New inputs go to
# .build/fuzz/corpus-<target>, crashes to .build/fuzz/crashes/. Prints, per target,
# the executions, executions per second and whether it crashed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
seconds=${FUZZ_SECONDS:-60}
out=.build/fuzz
mkdir -p "$out/crashes"
swift build --product migrant-chat >/dev/null   # generates the embedded resources
resources=$(find .build -path '*debug/MigrantChatCore.build/DerivedSources/embedded_resources.swift' | head -1)
swiftc -sanitize=fuzzer,address -parse-as-library -module-name MigrantChatCore -O \
  $(find Sources/MigrantChatCore -name '*.swift') "$resources" Tests/Fuzz/FuzzTargets.swift \
  -o "$out/fuzz" 2>&1 | grep -v 'Cannot export local symbol' || true
status=0
printf '%-10s %12s %10s %s\n' target executions exec/s result
for target in bot-reply html locale items; do
  mkdir -p "$out/corpus-$target"
  log="$out/$target.log"
  if FUZZ_TARGET=$target "$out/fuzz" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$target-" -max_len=65536 \
    "$out/corpus-$target" "Tests/Fuzz/corpus/$target" >"$log" 2>&1; then
    result=ok
  else
    result="CRASH (see $log and $out/crashes/)"
    status=1
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  printf '%-10s %12s %10s %s\n' "$target" "${runs:-?}" "${rate:-?}" "$result"
done
exit $status
