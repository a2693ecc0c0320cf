#!/bin/sh
# check_fusion.sh GEFLOW STEM MAX_PERCENT
#
# Compiles STEM.onnx with every fusion off and with all on: the fused compute
# op count must be at most MAX_PERCENT % of the unfused one (the fusion
# target: the transformer encoder keeps <= 50 %; compute ops, not kernels, since
# views such as Reshape launch no kernel either way), and the fused model's
# output must still match PyTorch's (STEM.output.npy within STEM.atol).
set -e
geflow=$1
stem=$2
max=$3
kernels() {
  "$geflow" compile "$stem.onnx" -o "$1" $2 | awk '$1 == "ops" { gsub(/\(/, "", $3); print $3 }'
}
unfused=$(kernels "$stem.unfused.om" --no-fuse=all)
fused=$(kernels "$stem.fused.om")
echo "compute ops: $unfused unfused, $fused fused"
if [ $((fused * 100)) -gt $((unfused * max)) ]; then
  echo "fusion left $fused of $unfused compute ops, more than $max %" >&2
  exit 1
fi
"$geflow" run "$stem.fused.om" --input input="$stem.input.npy" \
  --expect output="$stem.output.npy" --rtol 0 --atol "$(cat "$stem.atol")"
