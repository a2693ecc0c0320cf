#!/bin/sh
# check_gears.sh GEFLOW STEM MODE GEARS [COMPILE_ARGS...]
#
# Compiles STEM.onnx to STEM.gears-MODE-GEARS.om (one file per test: two
# tests of one model run at once) with COMPILE_ARGS (a --dynamic-* option)
# and checks what ATC's gears promise: the summary names MODE (DYNAMIC_BATCH,
# ...) and GEARS gears with one line each, Batch_0 .. Batch_<GEARS-1>; the OM
# stores the weights once (it is at most 10 % over the ONNX file, whose
# weights it holds); `geflow dump` shows every gear and `--gear` picks the
# last one, its ops labelled with its batch label.
set -e
geflow=$1
stem=$2
mode=$3
gears=$4
shift 4
om="$stem.gears-$mode-$gears.om"
summary=$("$geflow" compile "$stem.onnx" -o "$om" "$@")
echo "$summary"
fail() {
  echo "check_gears: $*" >&2
  exit 1
}
echo "$summary" | grep -q "^  gears  *$gears ($mode, inputs " ||
  fail "the summary does not name $gears $mode gears"
last=$((gears - 1))
for i in $(seq 0 $last); do
  echo "$summary" | grep -q "^    Batch_$i  *dims [0-9,]*  *kernels [1-9]" ||
    fail "no summary line for gear Batch_$i"
done
onnx_bytes=$(stat -c %s "$stem.onnx")
om_bytes=$(stat -c %s "$om")
echo "OM $om_bytes bytes, ONNX $onnx_bytes bytes"
[ "$om_bytes" -le $((onnx_bytes + onnx_bytes / 10)) ] ||
  fail "the OM ($om_bytes bytes) holds the weights more than once"
dump=$("$geflow" dump "$om")
[ "$(echo "$dump" | grep -c "^# gear [0-9]* 'Batch_")" = "$gears" ] ||
  fail "geflow dump does not show $gears gears"
picked=$("$geflow" dump "$om" --gear "$last")
echo "$picked" | grep -q "^# gear $last 'Batch_$last'" ||
  fail "geflow dump --gear $last does not show gear $last"
echo "$picked" | grep -q "s: \"Batch_$last\"" ||
  fail "gear $last's ops do not carry _batch_label Batch_$last"
if echo "$picked" | grep -q "s: \"Batch_0\""; then
  fail "geflow dump --gear $last shows another gear"
fi
echo "check_gears: $gears $mode gears"
