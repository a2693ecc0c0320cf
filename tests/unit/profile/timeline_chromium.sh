#!/bin/sh
# timeline_chromium.sh GEFLOW STREAM_MODELS_DIR
#
# timeline.html in headless Chromium: the page loads without a console message
# (a script error is one) and draws one lane per stream of a four-stream model.
# Exits 77 (skipped) when Debian's chromium is not installed.
set -eu
geflow=$1
models=$2
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIP: chromium is not installed (apt-get install chromium)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$geflow" compile "$models/four_branches.onnx" -o "$work/model.om" \
  --streams auto > /dev/null
"$geflow" run "$work/model.om" --profile "$work/profile" > /dev/null
# This machine has no network: without the background-networking flags
# Chromium keeps trying (and failing) to reach Google's hosts.
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
  --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync \
  --user-data-dir="$work/chromium" --enable-logging=stderr --v=0 \
  --dump-dom "file://$work/profile/timeline.html" \
  > "$work/dom.html" 2> "$work/chromium.log"

if grep CONSOLE "$work/chromium.log"; then
  echo "FAIL: timeline.html wrote to the console"
  exit 1
fi
if ! grep -q '<body data-lanes="4" data-tasks="[1-9][0-9]*"' "$work/dom.html"; then
  echo "FAIL: timeline.html did not draw 4 lanes:"
  grep -o '<body[^>]*>' "$work/dom.html" || true
  exit 1
fi
echo "timeline.html: 4 lanes drawn, no console message"
