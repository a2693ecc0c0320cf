#!/usr/bin/env bash
# The install ctests (examples/install/CMakeLists.txt): `cmake --install` the
# build into a fresh prefix, then build and run what a user would against it.
#   run-install-test.sh BUILD_DIR SOURCE_DIR c|cmake|python
# Each case installs into its own temporary prefix, so cases may run at once.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
case_name=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
models=$src/examples/models

case $case_name in
c)
  # Plain make with pkg-config, as the README shows.
  cp "$src"/examples/install/{Makefile,pipeline.c,model_exec.c} "$work"/
  PKG_CONFIG_PATH=$prefix/lib/pkgconfig make -s -C "$work"
  "$work"/pipeline
  "$prefix"/bin/geflow compile "$models"/tiny_cnn.onnx -o "$work"/tiny_cnn.om >/dev/null
  "$work"/model_exec "$work"/tiny_cnn.om "$models"/tiny_cnn.image.npy \
    "$models"/tiny_cnn.probs.npy
  # ACL_RUNTIME_TRACE=1 in a C program: one line per task. Per batch a copy
  # in, 3 kernels, 2 records and 2 waits (32), then 4 copies out: 36.
  ACL_RUNTIME_TRACE=1 "$work"/pipeline 2> "$work"/trace.txt >/dev/null
  lines=$(grep -c '^\[ACL_RUNTIME_TRACE\] stream ' "$work"/trace.txt)
  [[ $lines -eq 36 ]] || { echo "ACL_RUNTIME_TRACE: $lines lines, expected 36"; cat "$work"/trace.txt; exit 1; }
  grep -q 'KERNEL inference submit .* start .* end .* wait .* (us)' "$work"/trace.txt
  echo "install c: ok"
  ;;
cmake)
  cmake -S "$src"/examples/install/cmake -B "$work"/build -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work"/build >/dev/null
  "$work"/build/compile_and_run "$models"/tiny_cnn.onnx "$work"/tiny_cnn.om
  "$work"/build/model_exec "$work"/tiny_cnn.om "$models"/tiny_cnn.image.npy \
    "$models"/tiny_cnn.probs.npy
  echo "install cmake: ok"
  ;;
python)
  # Debian's python3 with nothing but the prefix on its path.
  PYTHONPATH=$prefix/lib/python3/dist-packages /usr/bin/python3 \
    "$src"/examples/install/resnet18.py "$work"
  echo "install python: ok"
  ;;
*)
  echo "run-install-test.sh: unknown case '$case_name'" >&2
  exit 2
  ;;
esac
