#!/usr/bin/env bash
# Runs each fuzz target for a bounded time (make fuzz):
#   [SEED_BUILD_DIR=DIR] run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]
# The corpus of each target grows in BUILD_DIR/fuzz/corpus/<target> across
# runs; crashes, leaks and timeouts land in BUILD_DIR/fuzz/artifacts/<target>/
# and fail the run. Prints one line per target: runs, execs/s, coverage.
set -euo pipefail
build=$(cd "$1" && pwd)
seconds=$2
shift 2
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(geflow-fuzz-onnx-import geflow-fuzz-om-load geflow-fuzz-stream-plan
           geflow-fuzz-soc-spec geflow-fuzz-runtime)
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$build/fuzz
if [[ ! -d $work/seeds ]]; then
  # SEED_BUILD_DIR: another build whose geflow compiles the OM seeds.
  "$here/make-seeds.sh" "${SEED_BUILD_DIR:-$build}" "$work/seeds.tmp"
  mv "$work/seeds.tmp" "$work/seeds"
fi

# Sanitizer findings abort with a stack; leaks are findings too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=0
summary=()
for target in "${targets[@]}"; do
  corpus=$work/corpus/$target
  artifacts=$work/artifacts/$target
  log=$work/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  echo "fuzz: $target for ${seconds}s (log: $log)"
  status=0
  start=$SECONDS
  "$build/bin/$target" "$corpus" "$work/seeds/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  stat() { grep -o "stat::$1: *[0-9]*" "$log" | tail -1 | grep -o '[0-9]*$' || true; }
  runs=$(stat number_of_executed_units)
  speed=$(stat average_exec_per_sec)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  corpus_size=$(find "$corpus" -type f | wc -l)
  line="$target: ${runs:-?} runs in $((SECONDS - start))s, ${speed:-?} execs/s,"
  line+=" cov ${cov:-?}, corpus $corpus_size"
  if [[ $status -ne 0 ]]; then
    line+=" -- FAILED (exit $status): $(grep -m1 -E 'ERROR: |runtime error|deadly signal' "$log" || echo see log)"
    failed=1
  fi
  summary+=("$line")
done
printf '%s\n' "${summary[@]}"
exit $failed
