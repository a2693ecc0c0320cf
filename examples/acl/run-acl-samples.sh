#!/usr/bin/env bash
# The AscendCL sample programs on the free-batch classifier (examples/classifier):
#   run-acl-samples.sh SAMPLES_DIR GEFLOW CLASSIFIER_DIR
# SAMPLES_DIR holds the programs (built in-tree, under a sanitizer, or against
# an installed package), GEFLOW compiles the batch-1 OM, CLASSIFIER_DIR holds
# classifier.onnx, its gear OM and torch's inputs and outputs. Each program
# checks its outputs against torch's and exits non-zero on a mismatch.
set -euo pipefail
bin=$1
geflow=$2
dir=$3
for need in "$geflow" "$dir/classifier.onnx" "$dir/classifier.om"; do
  [[ -e $need ]] || { echo "run-acl-samples.sh: '$need' is missing (make build)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

om=$work/classifier_b1.om
"$geflow" compile "$dir/classifier.onnx" --input-shape data:1,3,224,224 -o "$om" >/dev/null
echo '{"dump": {"dump_list": []}, "profiler": {"switch": "off"}}' > "$work/acl.json"
image=$dir/classifier.b1.data.npy
probs=$dir/classifier.b1.prob.npy

run() {
  echo "== $*"
  # Every program must end by itself: a hang is a failure, not a stuck CI.
  timeout 120 "$@"
}
run "$bin/classify_sync" "$work/acl.json" "$om" "$image" "$probs"
# The async sample's two ways: callbacks every 2 of 4 executions over a pool
# of 4, and no callbacks at all on a stream subscribed to a report thread
# that has stopped serving; then a pool smaller than the executions.
run "$bin/classify_async" "$om" "$image" "$probs" 4 2 4
run "$bin/classify_async" "$om" "$image" "$probs" 4 0 4
run "$bin/classify_async" "$om" "$image" "$probs" 12 3 5
run "$bin/dynamic_batch" "$dir/classifier.om" "$image" "$probs"
run "$bin/contexts_threads" "$om" "$image" "$probs" 4
echo "acl samples: ok"
