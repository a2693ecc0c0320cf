#!/bin/sh
# run_quant_model.sh GEFLOW DIR NAME OPS...
# Compiles DIR/NAME.onnx through the CLI, checks that the OM's ops include
# each of OPS (the quantized cube ops) and no float conv or matmul, and runs
# it on NAME.input.npy against NAME.output.npy within NAME.atol.
set -eu
geflow=$1 dir=$2 name=$3
shift 3
stem=$dir/$name
"$geflow" compile "$stem.onnx" -o "$stem.om"
"$geflow" dump "$stem.om" > "$stem.dump.txt"
for op in "$@"; do
  grep -q "type: \"$op\"" "$stem.dump.txt" || {
    echo "$name: no $op op in the compiled model" >&2
    exit 1
  }
done
if grep -E 'type: "(conv|matmul|fused_conv|fused_matmul)"' "$stem.dump.txt"; then
  echo "$name: a float cube op is left" >&2
  exit 1
fi
"$geflow" run "$stem.om" --input "input=$stem.input.npy" \
  --expect "output=$stem.output.npy" --rtol 0 --atol "$(cat "$stem.atol")"
