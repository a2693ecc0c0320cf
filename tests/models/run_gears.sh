#!/bin/sh
# run_gears.sh GEFLOW STEM "CASE ..." COMPILE_ARGS...
#
# What gears promise, on a real model: STEM.onnx compiled once with
# COMPILE_ARGS (a --dynamic-* option) into STEM.run.om gives PyTorch's outputs
# at every case. A CASE "TAG" runs STEM.TAG.input.npy on the gear of its shape
# and expects STEM.TAG.output.npy within STEM.atol (the models-run tolerance);
# "TAG:pad" runs with --pad-to-gear, on the smallest gear that holds it, and
# the output cut back must match too. Each run must say which gear ran.
set -e
geflow=$1
stem=$2
cases=$3
shift 3
om="$stem.run.om"
"$geflow" compile "$stem.onnx" -o "$om" "$@" > /dev/null
atol=$(cat "$stem.atol")
for case in $cases; do
  tag=${case%:pad}
  pad=
  [ "$tag" != "$case" ] && pad=--pad-to-gear
  out=$("$geflow" run "$om" --input "input=$stem.$tag.input.npy" $pad \
    --expect "output=$stem.$tag.output.npy" --rtol 0 --atol "$atol")
  echo "$out"
  echo "$out" | grep -q "^  gear  *Batch_[0-9]" || {
    echo "run_gears: $case: the run does not name its gear" >&2
    exit 1
  }
  if [ -n "$pad" ]; then
    echo "$out" | grep -q "inputs padded from" || {
      echo "run_gears: $case: not padded (a gear has its shape?)" >&2
      exit 1
    }
  fi
done
echo "run_gears: $cases match PyTorch"
