#!/usr/bin/env bash
# geflow side by side with ONNX Runtime (CPU): the zoo
# (bench/export_zoo.py: 13 torchvision and torch models with seeded random
# weights, exported into build/bench/zoo, or MODELS=DIR), then the bundled
# examples and the small models of tests/models (ResNet-18, MobileNet v2, the
# transformer encoder), which the table shows but leaves out of the geometric
# mean. Prints the report and writes it to BUILD/bench/ort-<isa>.md.
# Usage: scripts/bench-ort.sh [build-dir] [ZOO_DIR]
# Environment: THREADS (default 1,2), RUNS (default 20 per side), ROUNDS
# (default 4 alternating blocks), ISA (avx512|avx2|baseline: GEFLOW_ISA for
# geflow), ORT_ISA=avx2 (ORT as on a CPU without AVX-512: a copy of its
# library with its AVX-512 checks disabled, bench/compare_ort/ort_isa.js, and
# glibc's AVX-512 string functions off on both sides), EXTRAS=0 (the zoo
# alone).
set -euo pipefail
build="${1:-build}"
here="$(cd "$(dirname "$0")/.." && pwd)"
zoo="${2:-$build/bench/zoo}"
bench="$here/bench/compare_ort"
geflow="$build/bin/geflow"
if [[ ! -x "$geflow" ]]; then
  echo "error: $geflow not found; build the geflow target first" >&2
  exit 1
fi
if [[ -n "${ISA:-}" ]]; then
  export GEFLOW_ISA="$ISA"
fi
# ONNX Runtime's Node package ships a CPU libonnxruntime.so.1; no install
# scripts needed (they only fetch GPU providers). node_modules is git-ignored.
if [[ ! -d "$bench/node_modules/onnxruntime-node" ]]; then
  echo "== installing onnxruntime-node into $bench/node_modules"
  (cd "$bench" && npm ci --ignore-scripts --no-audit --no-fund)
fi
report="$build/bench/ort-{isa}.md"
case "${ORT_ISA:-native}" in
  native) ;;
  avx2)
    lib="$(node "$bench/ort_isa.js" "$build/bench/ort-avx2-lib")"
    export LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export GLIBC_TUNABLES="glibc.cpu.hwcaps=-AVX512F,-AVX512VL${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}"
    report="$build/bench/ort-{isa}-ort-avx2.md"
    ;;
  *)
    echo "error: ORT_ISA=$ORT_ISA: expected native or avx2" >&2
    exit 1
    ;;
esac
# The export keeps what it exported before, so a second run starts at once.
echo "== exporting the zoo into $zoo (first time: several minutes)"
set +e
/usr/bin/python3 "$here/bench/export_zoo.py" "$zoo"
status=$?
set -e
args=()
if [[ $status -eq 0 ]]; then
  args+=(--zoo "$zoo")
else
  echo "warning: no zoo (export_zoo.py exited $status)" >&2
fi
if [[ "${EXTRAS:-1}" != 0 ]]; then
  models="$build/bench/models"
  set +e
  /usr/bin/python3 "$here/tests/models/export_models.py" "$models" \
    resnet18 mobilenet_v2 transformer_encoder
  status=$?
  set -e
  args+=("$here/examples/models")
  if [[ $status -eq 0 ]]; then
    args+=("$models")
  else
    echo "warning: no small models (export_models.py exited $status)" >&2
  fi
fi
commit="$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
node "$bench/compare_ort.js" --geflow "$geflow" --work "$build/bench/compare_ort" \
  --threads "${THREADS:-1,2}" --runs "${RUNS:-20}" --rounds "${ROUNDS:-4}" \
  --markdown "$report" --note "geflow commit: $commit" \
  "${args[@]}"
