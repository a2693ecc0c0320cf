#!/bin/sh
# drop_each_wait.sh GEFLOW MODEL.onnx [geflow compile options...]
# Compiles a real model onto several streams, runs it clean under the stream
# sanitizer, then once per event wait of its task list with that wait left out
# (geflow run --drop-wait N): every run must fail with a sanitizer finding.
# Exits 77 (skipped) when the model was not exported (no torch).
geflow=$1 model=$2
shift 2
[ -f "$model" ] || { echo "skipped: $model not exported"; exit 77; }
om=$(mktemp "${TMPDIR:-/tmp}/drop-each-wait.XXXXXX.om")
err=$om.err
trap 'rm -f "$om" "$err"' EXIT
"$geflow" compile "$model" -o "$om" "$@" > /dev/null || exit 1
"$geflow" run "$om" --sanitize --threads 2 > /dev/null || {
  echo "FAIL: the unchanged task list is not clean"; exit 1; }
"$geflow" run "$om" --sanitize --drop-wait 999999 > /dev/null 2> "$err"
waits=$(sed -n 's/.*the model has \([0-9]*\) event waits.*/\1/p' "$err")
[ -n "$waits" ] && [ "$waits" -gt 0 ] || {
  echo "FAIL: $model has no event waits on this stream plan"; exit 1; }
caught=0 missed=""
n=0
while [ "$n" -lt "$waits" ]; do
  if ! "$geflow" run "$om" --sanitize --threads 2 --drop-wait "$n" \
       > /dev/null 2> "$err" && grep -q "stream sanitizer" "$err"; then
    caught=$((caught + 1))
  else
    missed="$missed $n"
  fi
  n=$((n + 1))
done
echo "$(basename "$model"): $caught of $waits dropped event waits caught"
[ -z "$missed" ] || { echo "FAIL: not caught:$missed"; exit 1; }
