#!/usr/bin/env bash
# The install ctests (examples/install/CMakeLists.txt): `cmake --install` the
# build into a fresh prefix, then build and run what a user would against it.
#   run-install-test.sh BUILD_DIR SOURCE_DIR c|cmake|python|acl
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
acl)
  # The AscendCL samples built with plain make and pkg-config, run on the
  # classifier the build exported; and the toolkit folder CANN's own sample
  # CMakeLists look for (DDK_PATH, NPU_HOST_LIB, -lascendcl).
  cp "$src"/examples/acl/{Makefile,sample_common.h,*.c} "$src"/examples/AclCheck.h "$work"/
  PKG_CONFIG_PATH=$prefix/lib/pkgconfig make -s -C "$work"
  "$src"/examples/acl/run-acl-samples.sh "$work" "$prefix"/bin/geflow \
    "$build"/examples/classifier
  home=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --variable=ascend_home geflow)
  [[ -f $home/runtime/include/acl/acl.h && -f $home/runtime/lib64/stub/libascendcl.so ]] ||
    { echo "install acl: no CANN-shaped toolkit folder at $home"; exit 1; }
  cc -o "$work"/ascendcl_link "$work"/classify_sync.c -I"$home"/runtime/include \
    -L"$home"/runtime/lib64/stub -Wl,-rpath,"$prefix"/lib -lascendcl -lm
  echo "install acl: ok"
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
