#!/usr/bin/env bash
# ctest compile-time-passes: the lanes graph at ~2k nodes, opsets 13 and 17,
# through `geflow compile --time-passes`. Checks that the report lists every
# phase, and that the opset-13 model (its ops change between 13 and 17 only by
# libonnx's compatible adapters, so its conversion is the opset number; the
# piecewise path is LibOnnxConverterTest's) computes bitwise what the opset-17
# one does.
# Usage: check_time_passes.sh GEFLOW WORKDIR
set -euo pipefail
geflow="$1"
work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$work" && mkdir -p "$work"
for opset in 13 17; do
  /usr/bin/python3 "$here/gen_graph.py" --nodes 2000 --opset "$opset" \
    -o "$work/lanes$opset.onnx" >/dev/null
  "$geflow" compile "$work/lanes$opset.onnx" -o "$work/lanes$opset.om" \
    --time-passes >"$work/summary$opset.txt" 2>"$work/timing$opset.txt"
  for phase in "Execution time report" "read model" "checks" \
    "version conversion" "shape inference" "import" "pass pipeline" \
    "Canonicalizer" "AssignStreams" "InsertEvents" "PlanMemory" "emission" \
    "validation" "OM write" "Total"; do
    if ! grep -q -- "$phase" "$work/timing$opset.txt"; then
      echo "error: opset $opset: --time-passes does not list '$phase':" >&2
      cat "$work/timing$opset.txt" >&2
      exit 1
    fi
  done
  # Every phase row has its seconds, share and peak RSS.
  if ! grep -qE '^ +[0-9]+\.[0-9]{4} \( *[0-9.]+%\) +[0-9.]+ MiB  +PlanMemory$' \
    "$work/timing$opset.txt"; then
    echo "error: opset $opset: a timing row is malformed" >&2
    exit 1
  fi
  "$geflow" run "$work/lanes$opset.om" --seed 3 --output-dir "$work/out$opset" \
    >/dev/null
done
for out in "$work"/out17/*.npy; do
  cmp "$out" "$work/out13/$(basename "$out")"
done
echo "compile --time-passes: phases listed; opset 13 (converted)" \
  "and 17 agree bitwise"
