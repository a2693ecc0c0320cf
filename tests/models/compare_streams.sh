#!/bin/sh
# compare_streams.sh GEFLOW MODEL_STEM
#
# Compiles MODEL_STEM.onnx with --streams single, label and auto, runs each on
# MODEL_STEM.input.npy, and checks that label and auto give exactly the
# single-stream outputs and that auto's simulated device time is never longer
# than single's (auto keeps a stream only where it pays: pipeline step 6,
# docs/architecture.md).
set -eu
geflow=$1
stem=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

device_time() { sed -n 's/^  device time *\([0-9.]*\) us.*/\1/p' "$1"; }

for mode in single label auto; do
  "$geflow" compile "$stem.onnx" -o "$work/$mode.om" --streams $mode > "$work/$mode.compile"
done
"$geflow" run "$work/single.om" --input input="$stem.input.npy" \
  --output-dir "$work/single" > "$work/single.run"
for mode in label auto; do
  "$geflow" run "$work/$mode.om" --input input="$stem.input.npy" \
    --expect output="$work/single/output.npy" --rtol 0 --atol 0 > "$work/$mode.run"
done

single=$(device_time "$work/single.run")
auto=$(device_time "$work/auto.run")
streams=$(sed -n 's/^  streams *\([0-9]*\).*/\1/p' "$work/auto.compile")
echo "$(basename "$stem"): auto ${auto} us on $streams stream(s), single ${single} us"
awk -v a="$auto" -v s="$single" 'BEGIN { exit !(a <= s) }' || {
  echo "error: --streams auto (${auto} us) is slower than single (${single} us)" >&2
  exit 1
}
