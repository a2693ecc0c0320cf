#!/usr/bin/env bash
# `make demo`: the main job on the bundled example. Today that is importing
# examples/models/tiny_cnn.onnx into the ge dialect and running the runtime's
# three-stage pipeline sample; compile/run take over as they land.
set -euo pipefail
build=${1:-build}
bin="$build/bin"
model=examples/models/tiny_cnn.onnx

section() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

section "geflow import $model  (weights elided above 16 elements)"
"$bin/geflow" import "$model" --elide-weights=16

if [[ -x "$bin/geflow-pipeline-sample" ]]; then
  section "runtime sample: 3-stage pipeline, one stream vs three streams"
  "$bin/geflow-pipeline-sample"
fi
