#!/bin/sh
# run_stream_model.sh GEFLOW DIR MODEL [geflow compile options...]
# Compiles DIR/MODEL.onnx with the given options, runs it on the generated
# inputs (DIR/MODEL.input.NAME.npy) and checks every output against the host
# reference (DIR/MODEL.output.NAME.npy).
set -e
geflow=$1 dir=$2 model=$3
shift 3
om=$(mktemp "${TMPDIR:-/tmp}/$model.XXXXXX.om")
trap 'rm -f "$om"' EXIT
"$geflow" compile "$dir/$model.onnx" -o "$om" "$@"
set --
for file in "$dir/$model".input.*.npy; do
  name=${file#"$dir/$model.input."}
  set -- "$@" --input "${name%.npy}=$file"
done
for file in "$dir/$model".output.*.npy; do
  name=${file#"$dir/$model.output."}
  set -- "$@" --expect "${name%.npy}=$file"
done
"$geflow" run "$om" --repeat 1 --rtol 1e-3 --atol 1e-3 "$@"
