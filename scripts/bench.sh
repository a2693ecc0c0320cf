#!/usr/bin/env bash
# Runs geflow's benchmarks and prints figures a person can compare across
# commits, then checks them against the runtime's targets:
# host launch cost < 1 us, >= 5 M simulated tasks/s on one stream.
# Usage: scripts/bench.sh [build-dir] [extra Google Benchmark flags...]
set -euo pipefail
build="${1:-build}"
bin="$build/bin/geflow-runtime-bench"
if [[ ! -x "$bin" ]]; then
  echo "error: $bin not found; build the geflow-bench target first" >&2
  exit 1
fi
out="$(mktemp -t geflow-bench.XXXXXX.json)"
trap 'rm -f "$out"' EXIT

echo "== runtime: host launch cost, event record+wait, simulated dispatch throughput"
"$bin" --benchmark_counters_tabular=true \
  --benchmark_out="$out" --benchmark_out_format=json "${@:2}"

# Dynamic shapes: a gear switch per execution against a static model,
# run-time shape resolution (cache hit and miss) on a dynamic-axes encoder,
# two decode requests on two contexts against one after the other, and the
# packed GEMM's and Winograd's GFLOP/s on the zoo's shapes.
for dynamic in geflow-gear-bench geflow-runtime-shapes-bench \
  geflow-concurrent-bench geflow-kernel-bench; do
  if [[ -x "$build/bin/$dynamic" ]]; then
    echo
    echo "== $dynamic"
    "$build/bin/$dynamic" --benchmark_counters_tabular=true "${@:2}"
  fi
done

python3 - "$out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
runs = {b["name"]: b for b in report["benchmarks"]}
context = report.get("context", {})
def ns(name):
    b = runs.get(name)
    if b is None:
        return None
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b["real_time"] * scale
def rate(name):
    # Google Benchmark divides by CPU time; the simulation is single-threaded,
    # so that is the work it does, whatever else loads the machine.
    b = runs.get(name)
    return None if b is None else b.get("items_per_second")
def wall(name):
    b = runs.get(name)
    if b is None or not b.get("real_time"):
        return ""
    r = b["items_per_second"] * b["cpu_time"] / b["real_time"]
    return f"(wall clock: {r:,.0f}/s)" 
rows = [
    ("kernel launch, C++ API (ns/task)", ns("BM_KernelLaunch"), "< 1000", lambda v: v < 1000),
    ("kernel launch, C API (ns/task)", ns("BM_AclLaunchKernel"), "< 1000", lambda v: v < 1000),
    ("event record + wait (ns/pair)", ns("BM_EventRecordWait"), "", None),
    ("simulated tasks/s, 1 stream", rate("BM_DispatchThroughput/streams:1"), ">= 5e6", lambda v: v >= 5e6),
    ("simulated tasks/s, 8 streams", rate("BM_DispatchThroughput/streams:8"), "", None),
    ("simulated tasks/s, 64 streams", rate("BM_DispatchThroughput/streams:64"), "", None),
]
notes = {
    "simulated tasks/s, 1 stream": wall("BM_DispatchThroughput/streams:1"),
    "simulated tasks/s, 8 streams": wall("BM_DispatchThroughput/streams:8"),
    "simulated tasks/s, 64 streams": wall("BM_DispatchThroughput/streams:64"),
}
print("\n== summary")
print(f"  {'host kernels ISA':38s} {context.get('host_isa', 'unknown'):>14s}   "
      f"({context.get('host_cpu', 'unknown CPU')})")
ok = True
for label, value, target, check in rows:
    if value is None:
        print(f"  {label:38s} (not run)")
        continue
    verdict = ""
    if check:
        good = check(value)
        ok &= good
        verdict = f"target {target}: {'ok' if good else 'MISSED'}"
    shown = f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"
    print(f"  {label:38s} {shown:>14s}   {verdict} {notes.get(label, '')}".rstrip())
sys.exit(0 if ok else 1)
PY
