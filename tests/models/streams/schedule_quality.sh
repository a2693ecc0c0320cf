#!/bin/sh
# schedule_quality.sh GEFLOW MODEL.onnx MAX_RATIO MAX_EFFICIENCY [run options...]
#
# The schedule targets for one model: compiles it with --streams
# single, label and auto; runs each under the stream sanitizer (any finding
# fails the run); checks that label and auto give bitwise the single-stream
# outputs; that no mode's prediction is below its lower bound; and that
# auto's predicted makespan is at most MAX_RATIO of one stream's and its
# efficiency (predicted / lower bound) at most MAX_EFFICIENCY ("-" skips a
# check). The efficiency is recomputed from the printed makespan and bound,
# not read rounded. The run options name the inputs.
set -eu
geflow=$1 model=$2 max_ratio=$3 max_eff=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() { sed -n "s/^  $1 *\([0-9.]*\).*/\1/p" "$2"; }

for mode in single label auto; do
  "$geflow" compile "$model" -o "$work/$mode.om" --streams $mode > "$work/$mode.compile"
  grep -q '^  efficiency' "$work/$mode.compile" || {
    echo "error: --streams $mode reports no efficiency" >&2
    exit 1
  }
  # The bound holds for every schedule: no prediction beats it.
  p=$(field predicted "$work/$mode.compile")
  b=$(sed -n 's/^  lower bound *\([0-9.]*\).*/\1/p' "$work/$mode.compile")
  awk -v p="$p" -v b="$b" 'BEGIN { exit !(p >= b) }' || {
    echo "error: --streams $mode predicts ${p} us, below its lower bound ${b} us" >&2
    exit 1
  }
done
"$geflow" run "$work/single.om" --sanitize "$@" --output-dir "$work/single" > "$work/single.run"
for mode in label auto; do
  set -- "$@" # keep the inputs
  expects=
  for file in "$work"/single/*.npy; do
    name=$(basename "$file" .npy)
    expects="$expects --expect $name=$file"
  done
  # shellcheck disable=SC2086
  "$geflow" run "$work/$mode.om" --sanitize "$@" $expects --rtol 0 --atol 0 > "$work/$mode.run"
done

single=$(field predicted "$work/single.compile")
auto=$(field predicted "$work/auto.compile")
bound=$(sed -n 's/^  lower bound *\([0-9.]*\).*/\1/p' "$work/auto.compile")
eff=$(awk -v a="$auto" -v b="$bound" 'BEGIN { printf "%.4f", a / b }')
echo "$(basename "$model" .onnx): auto ${auto} us, single ${single} us, efficiency ${eff}"
if [ "$max_ratio" != - ]; then
  awk -v a="$auto" -v s="$single" -v m="$max_ratio" 'BEGIN { exit !(a <= m * s) }' || {
    echo "error: --streams auto (${auto} us) is over ${max_ratio}x one stream (${single} us)" >&2
    exit 1
  }
fi
if [ "$max_eff" != - ]; then
  awk -v e="$eff" -v m="$max_eff" 'BEGIN { exit !(e <= m) }' || {
    echo "error: --streams auto's efficiency ${eff} is over ${max_eff}" >&2
    exit 1
  }
fi
