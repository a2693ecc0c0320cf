#!/usr/bin/env bash
# Says whether two geflow builds behave alike, bit for bit: each model is
# compiled by both, the OM files compared, and each OM run by both under every
# ISA the host has (GEFLOW_ISA=avx512, avx2, baseline) on the same seeded
# inputs, the outputs compared byte for byte. For changes that must not change
# behaviour (moves, splits, folded per-ISA bodies). Exits 1 when anything
# differs or fails.
# Usage: scripts/compare-builds.sh BEFORE_GEFLOW AFTER_GEFLOW MODEL.onnx...
set -uo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 BEFORE_GEFLOW AFTER_GEFLOW MODEL.onnx..." >&2
  exit 2
fi
before="$1"
after="$2"
shift 2
for bin in "$before" "$after"; do
  if [[ ! -x "$bin" ]]; then
    echo "error: $bin is not an executable geflow" >&2
    exit 2
  fi
done
work="$(mktemp -d -t geflow-compare.XXXXXX)"
trap 'rm -rf "$work"' EXIT

differences=0
for model in "$@"; do
  name="$(basename "$model" .onnx)"
  for side in before after; do
    mkdir -p "$work/$side/$name"
    bin="${!side}"
    if ! "$bin" compile "$model" -o "$work/$side/$name/model.om" \
        >"$work/$side/$name/compile.log" 2>&1; then
      echo "$name: $side: compile failed: $(tail -1 "$work/$side/$name/compile.log")"
      differences=$((differences + 1))
      continue 2
    fi
  done
  verdict="om same"
  if ! cmp -s "$work/before/$name/model.om" "$work/after/$name/model.om"; then
    verdict="OM DIFFERS"
    differences=$((differences + 1))
  fi
  for isa in avx512 avx2 baseline; do
    for side in before after; do
      bin="${!side}"
      out="$work/$side/$name/$isa"
      mkdir -p "$out"
      GEFLOW_ISA=$isa "$bin" run "$work/before/$name/model.om" \
        --output-dir "$out" >"$out.log" 2>&1 || echo "$name: $side: run under $isa failed"
    done
    if diff -rq "$work/before/$name/$isa" "$work/after/$name/$isa" >/dev/null &&
        [[ -n "$(ls "$work/before/$name/$isa")" ]]; then
      verdict="$verdict, $isa same"
    else
      verdict="$verdict, $isa DIFFERS"
      differences=$((differences + 1))
    fi
  done
  echo "$name: $verdict"
done
echo "compare-builds: $# model(s), $differences difference(s)"
[[ $differences -eq 0 ]]
