#!/usr/bin/env bash
# geflow side by side with ONNX Runtime (CPU): the bundled examples, ResNet-18,
# MobileNet v2 and the transformer encoder exported by tests/models, and every
# .onnx file in the folders or files given after the build folder.
# Usage: scripts/bench-ort.sh [build-dir] [MODEL.onnx|FOLDER ...]
# Environment: THREADS (default 1,2), RUNS (default 20).
set -euo pipefail
build="${1:-build}"
shift || true
here="$(cd "$(dirname "$0")/.." && pwd)"
bench="$here/bench/compare_ort"
geflow="$build/bin/geflow"
if [[ ! -x "$geflow" ]]; then
  echo "error: $geflow not found; build the geflow target first" >&2
  exit 1
fi
# ONNX Runtime's Node package ships a CPU libonnxruntime.so.1; no install
# scripts needed (they only fetch GPU providers). node_modules is git-ignored.
if [[ ! -d "$bench/node_modules/onnxruntime-node" ]]; then
  echo "== installing onnxruntime-node into $bench/node_modules"
  (cd "$bench" && npm ci --ignore-scripts --no-audit --no-fund)
fi
models="$build/bench/models"
set +e
/usr/bin/python3 "$here/tests/models/export_models.py" "$models" \
  resnet18 mobilenet_v2 transformer_encoder
status=$?
set -e
inputs=("$here/examples/models")
if [[ $status -eq 0 ]]; then
  inputs+=("$models")
else
  echo "warning: no exported models (export_models.py exited $status)" >&2
fi
node "$bench/compare_ort.js" --geflow "$geflow" --work "$build/bench/compare_ort" \
  --threads "${THREADS:-1,2}" --runs "${RUNS:-20}" "${inputs[@]}" "$@"
