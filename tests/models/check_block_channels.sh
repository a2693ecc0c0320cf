#!/bin/sh
# check_block_channels.sh GEFLOW STEM
#
# STEM.onnx (a network of depthwise convs) compiles with runs kept in
# NC1HWC0: the built graph has trans_data ops and NC1HWC0 tensors, and its
# output still matches PyTorch's (STEM.output.npy within STEM.atol); with
# --no-fuse=block-channels it has neither and matches too.
set -e
geflow=$1
stem=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { "$geflow" dump "$1" | grep -c "$2" || true; }
"$geflow" compile "$stem.onnx" -o "$out/blocked.om" >/dev/null
"$geflow" compile "$stem.onnx" -o "$out/plain.om" --no-fuse=block-channels >/dev/null
trans=$(count "$out/blocked.om" 'type: "trans_data"')
blocked=$(count "$out/blocked.om" 'layout: "NC1HWC0"')
echo "blocked: $trans trans_data ops, $blocked NC1HWC0 tensor descriptors"
if [ "$trans" -lt 2 ] || [ "$blocked" -lt 1 ]; then
  echo "no run of $stem was kept in NC1HWC0" >&2
  exit 1
fi
if [ "$(count "$out/plain.om" 'trans_data')" -ne 0 ]; then
  echo "--no-fuse=block-channels still made trans_data ops" >&2
  exit 1
fi
for om in blocked plain; do
  "$geflow" run "$out/$om.om" --input input="$stem.input.npy" \
    --expect output="$stem.output.npy" --rtol 0 --atol "$(cat "$stem.atol")"
done
