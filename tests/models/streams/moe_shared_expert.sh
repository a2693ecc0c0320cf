#!/bin/sh
# moe_shared_expert.sh GEFLOW MODELS_DIR
#
# The MoE check: the shared expert on a stream of its own with 8 of the
# 24 cube cores (moe.plan.json), the rest left to --streams auto. The outputs
# must equal the single-stream run's, the simulated makespan must be shorter,
# and the shared expert's stream must overlap another stream (overlap_pct
# >= 0.5 is real overlap: docs/architecture.md, "Profiles").
set -eu
geflow=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

device_time() { sed -n 's/^  device time *\([0-9.]*\) us.*/\1/p' "$1"; }

"$geflow" compile "$dir/moe.onnx" -o "$work/single.om" --streams single > /dev/null
"$geflow" compile "$dir/moe.onnx" -o "$work/plan.om" --streams auto \
  --stream-plan "$dir/moe.plan.json" > "$work/plan.compile"
"$geflow" run "$work/single.om" --input x="$dir/moe.input.x.npy" \
  --output-dir "$work/single" > "$work/single.run"
"$geflow" run "$work/plan.om" --input x="$dir/moe.input.x.npy" \
  --expect y="$work/single/y.npy" --rtol 0 --atol 0 \
  --profile "$work/profile" > "$work/plan.run"

single=$(device_time "$work/single.run")
plan=$(device_time "$work/plan.run")
# The profile's best overlap_pct between the shared expert's stream and any
# other: auto may run the router and the routed experts on streams of their
# own, so the main stream is not necessarily the busy one.
overlap=$(/usr/bin/python3 - "$work/profile" <<'PY'
import csv, json, sys
folder = sys.argv[1]
shared = None
with open(folder + "/op_summary.csv") as f:
    for row in csv.DictReader(f):
        if row["Op Name"].startswith("shared_expert/"):
            shared = int(row["Stream ID"])
            break
best = 0.0
with open(folder + "/summary.json") as f:
    for entry in json.load(f)["stream_pairs"]:
        if shared in entry["streams"]:
            best = max(best, entry["overlap_pct"])
print(f"{best:.3f}")
PY
)
echo "moe: one stream ${single} us; shared expert on its own stream ${plan} us; overlap_pct ${overlap}"
awk -v p="$plan" -v s="$single" -v o="$overlap" 'BEGIN { exit !(p < s && o >= 0.5) }' || {
  echo "error: expected a shorter makespan than one stream and overlap_pct >= 0.5" >&2
  exit 1
}
