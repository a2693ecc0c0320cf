#!/usr/bin/env bash
# Runs geflow's benchmarks and prints figures a person can compare across
# commits. Usage: scripts/bench.sh [build-dir]  (default: build)
set -euo pipefail
build="${1:-build}"
bin="$build/bin/geflow-runtime-bench"
if [[ ! -x "$bin" ]]; then
  echo "error: $bin not found; build the geflow-bench target first" >&2
  exit 1
fi
echo "== runtime: host launch cost, event record+wait, simulated dispatch throughput"
"$bin" --benchmark_counters_tabular=true "${@:2}"
