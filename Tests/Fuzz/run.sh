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
swift build --product migrant-chat >/dev/null   # generates the embedded resources, fetches Yams
resources=$(find .build -path '*debug/MigrantChatCore.build/DerivedSources/embedded_resources.swift' | head -1)
# Yams (for the transcript parser): its C part with clang, its Swift part as a
# static library, both instrumented; built once per checkout.
yams=.build/checkouts/Yams/Sources
if [ ! -f "$out/yams/libYams.a" ] || [ "$yams/Yams/Parser.swift" -nt "$out/yams/libYams.a" ]; then
  rm -rf "$out/yams" && mkdir -p "$out/yams"
  (cd "$out/yams" && clang -O1 -fsanitize=fuzzer-no-link,address -I "$root/$yams/CYaml/include" \
    -c "$root/$yams"/CYaml/src/*.c)
  swiftc -sanitize=fuzzer,address -parse-as-library -module-name Yams -O -D SWIFT_PACKAGE \
    -emit-module -emit-module-path "$out/yams/Yams.swiftmodule" -emit-library -static \
    -I "$yams/CYaml/include" "$yams"/Yams/*.swift -o "$out/yams/libYams.a"
fi
# hdrhistogram-swift (for the interval logs) over a stand-in for swift-numerics: it
# uses only Double.pow(_:_:) and Double.log2(_:) from it. Built once per checkout.
histogram=.build/checkouts/hdrhistogram-swift/Sources/Histogram
if [ ! -f "$out/histogram/libHistogram.a" ] || [ "$histogram/Histogram.swift" -nt "$out/histogram/libHistogram.a" ]; then
  rm -rf "$out/histogram" && mkdir -p "$out/histogram"
  # Glibc, not Foundation: Histogram declares its own String(format:) where Foundation is not seen.
  printf '%s\n' 'import Glibc' 'extension Double {' \
    '  @inlinable public static func pow(_ x: Double, _ n: Int) -> Double { Glibc.pow(x, Double(n)) }' \
    '  @inlinable public static func log2(_ x: Double) -> Double { Glibc.log2(x) }' '}' \
    >"$out/histogram/Numerics.swift"
  if ! { swiftc -sanitize=fuzzer,address -parse-as-library -module-name Numerics -O \
      -emit-module -emit-module-path "$out/histogram/Numerics.swiftmodule" -emit-library -static \
      "$out/histogram/Numerics.swift" -o "$out/histogram/libNumerics.a" &&
    swiftc -sanitize=fuzzer,address -parse-as-library -module-name Histogram -O -suppress-warnings \
      -I "$out/histogram" -emit-module -emit-module-path "$out/histogram/Histogram.swiftmodule" \
      -emit-library -static "$histogram/Histogram.swift" -o "$out/histogram/libHistogram.a"; } \
    >"$out/histogram/build.log" 2>&1; then
    grep -E 'error' "$out/histogram/build.log" | head -20
    rm -f "$out/histogram/libHistogram.a"
    echo "FUZZ BUILD FAILED (Histogram; the whole log: $out/histogram/build.log); no target was run"
    exit 2
  fi
fi
# The core's sources and the transcript parser in one module (the parser's
# `import MigrantChatCore` then names its own module, a harmless warning:
# warnings are off here, our code's warnings are checked by `swift build`).
# Every file of the parser (TranscriptParser+*.swift too: the inspector's tracker checks
# live in one, and without it the build failed and every target was reported a CRASH;
# TestStoryParser.swift reads Rasa's test stories for the same Reader, and CI failed
# once without it).
# A build that fails says so, with its errors, and stops.
rm -f "$out/fuzz"
if ! swiftc -sanitize=fuzzer,address -parse-as-library -module-name MigrantChatCore -O \
  -suppress-warnings -I "$out/yams" -I "$yams/CYaml/include" -I "$out/histogram" -I Sources/CZlib \
  $(find Sources/MigrantChatCore -name '*.swift') "$resources" \
  Sources/MigrantChatIO/Transcripts/TranscriptParser*.swift \
  Sources/MigrantChatIO/Transcripts/TestStoryParser.swift Sources/MigrantChatIO/Files/ConfigFile.swift \
  Sources/MigrantChatIO/Load/{HistogramCodec,HistogramLog,LoadCounts,LoadRecorder}.swift \
  Tests/Fuzz/FuzzTargets.swift \
  "$out/yams/libYams.a" "$out"/yams/*.o "$out/histogram/libHistogram.a" "$out/histogram/libNumerics.a" \
  -lz -o "$out/fuzz" >"$out/build.log" 2>&1; then
  grep -v 'Cannot export local symbol' "$out/build.log" | grep -E 'error' | head -20
  echo "FUZZ BUILD FAILED (the whole log: $out/build.log); no target was run"
  exit 2
fi
status=0
printf '%-10s %12s %10s %s\n' target executions exec/s result
for target in ${FUZZ_TARGETS:-bot-reply html locale items transcript json hlog due search tracker config rasa-e2e socketio}; do
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
