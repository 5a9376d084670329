#!/usr/bin/env bash
# Fuzzes one target of strata-fuzz with libFuzzer (and AddressSanitizer) for SECONDS.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#   TARGET: csv | migration-file | script | arguments | project | output | fleet-list | dqlite-wire
#
# The working corpus grows in .build/fuzz/corpus/TARGET (seeded from Fuzz/Corpus/TARGET);
# an input that breaks a property is written to .build/fuzz/artifacts/TARGET/. Keep it as a
# regression test: copy it into Fuzz/Regressions/TARGET/, fix the bug, `swift test --filter
# StrataFuzzTests`. Replay inputs without the fuzzer: `swift run strata-fuzz TARGET FILE...`.
set -euo pipefail
cd "$(dirname "$0")/.."

targets="csv migration-file script arguments project output fleet-list dqlite-wire"
if [ $# -lt 2 ] || ! [[ " $targets " == *" $1 "* ]] || ! [[ $2 =~ ^[0-9]+$ ]]; then
  echo "usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]  (TARGET: ${targets// / | })" >&2
  exit 64
fi
target=$1
seconds=$2
shift 2

scratch=.build/fuzz
mkdir -p .build
# The linker warns once per sanitizer symbol it cannot export; the rest of its output stays.
if ! swift build --product strata-fuzz --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > "$scratch.log" 2>&1; then
  grep -v "Cannot export local symbol" "$scratch.log" >&2
  echo "Fuzz/run.sh: the fuzz build failed" >&2
  exit 1
fi
binary="$scratch/debug/strata-fuzz"

# The project target runs the real strata binary, built plainly (libFuzzer brings its own main).
per_input_timeout=10
if [ "$target" = project ]; then
  if ! swift build --product strata > "$scratch-strata.log" 2>&1; then
    cat "$scratch-strata.log" >&2
    echo "Fuzz/run.sh: the strata build failed" >&2
    exit 1
  fi
  export STRATA_BINARY="$PWD/.build/debug/strata"
  # Five commands of up to ProjectRun.timeLimit seconds each.
  per_input_timeout=60
fi

corpus="$scratch/corpus/$target"
artifacts="$scratch/artifacts/$target"
mkdir -p "$corpus" "$artifacts"

# SWIFT_BACKTRACE: libFuzzer and ASan print the stack; Swift's own backtracer would stall.
# detect_leaks=0: Foundation keeps caches for the life of the process, which LSan reports.
STRATA_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no \
  ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
  "$binary" "$corpus" "Fuzz/Corpus/$target" \
  -dict="Fuzz/Dictionaries/$target.dict" \
  -max_total_time="$seconds" -max_len=4096 -timeout="$per_input_timeout" -rss_limit_mb=4096 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
