#!/usr/bin/env bash
# Compile time and peak RSS against graph size: generates the lanes
# graph at 10k, 30k and 100k nodes, at opset 13 and 17, compiles each with
# `geflow compile --time-passes` and prints per phase the figures and their
# growth between sizes. SIZES and OPSETS (comma-separated) override the sets.
# Usage: scripts/bench-compile.sh [build-dir]
set -euo pipefail
build="${1:-build}"
geflow="$build/bin/geflow"
if [[ ! -x "$geflow" ]]; then
  echo "error: $geflow not found; build the geflow target first" >&2
  exit 1
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec /usr/bin/python3 "$here/../bench/compile/bench_compile.py" "$geflow" \
  "$build/bench/compile" --sizes "${SIZES:-10000,30000,100000}" \
  --opsets "${OPSETS:-13,17}"
