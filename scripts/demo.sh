#!/usr/bin/env bash
# `make demo`: the main job on the bundled example. Import the model into the ge
# dialect, compile it to an OM artifact, show which op went to which stream, run
# it on the simulated NPU with a fixed input and check the result against
# PyTorch's, then run the runtime's
# three-stage pipeline sample on one stream and on three.
set -euo pipefail
build=${1:-build}
bin="$build/bin"
model=examples/models/tiny_cnn.onnx
out="$build/demo"
mkdir -p "$out"

section() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

section "geflow import $model  (weights elided above 16 elements)"
"$bin/geflow" import "$model" --elide-weights=16

section "geflow compile $model -o $out/tiny_cnn.om"
"$bin/geflow" compile "$model" -o "$out/tiny_cnn.om"

section "geflow dump $out/tiny_cnn.om  (which op runs on which stream; Send/Recv are the events)"
# The pbtxt GraphDef, one line per op that is not a weight.
"$bin/geflow" dump "$out/tiny_cnn.om" | awk '
  /^op \{/ { inOp = 1; name = type = stream = event = ""; next }
  inOp && /^  name:/ { gsub(/"/, "", $2); name = $2 }
  inOp && /^  type:/ { gsub(/"/, "", $2); type = $2 }
  inOp && /^  stream_id:/ { stream = $2 }
  inOp && /^      i:/ && type ~ /^(Send|Recv)$/ { event = "  event " $2 }
  /^\}/ { if (inOp && type != "Const")
             printf "  stream %s  %-20s %s%s\n", stream, type, name, event
           inOp = 0 }'

section "geflow run $out/tiny_cnn.om  (checked against PyTorch's output)"
"$bin/geflow" run "$out/tiny_cnn.om" --repeat 20 \
  --input image=examples/models/tiny_cnn.image.npy \
  --expect probs=examples/models/tiny_cnn.probs.npy \
  --output-dir "$out/outputs" --profile "$out/profile"
echo "  outputs in $out/outputs; open $out/profile/timeline.html in a browser, or"
echo "  $out/profile/trace.json in ui.perfetto.dev"

section "runtime sample: 3-stage pipeline, one stream vs three streams"
"$bin/geflow-pipeline-sample"
