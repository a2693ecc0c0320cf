#!/usr/bin/env bash
# Installs the Debian packages geflow builds and tests with. Idempotent: it asks apt
# only for what dpkg says is missing, so a machine that has everything pays nothing.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ make python3
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libonnx-dev libonnx-testdata
  libprotobuf-dev protobuf-compiler
  libeigen3-dev nlohmann-json3-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # Test models (ResNet, MobileNet, ShuffleNet, a transformer) are exported at build time.
  python3-torch python3-torchvision
  # The quantized test models (tests/models/quant) are built with onnx.helper.
  python3-onnx
  # timeline.html is tested in a headless browser.
  chromium
  # Sanitizer builds and libFuzzer targets (make test-asan, test-tsan, fuzz):
  # clang and its runtime matching LLVM 19.
  clang-19 libclang-rt-19-dev
  # The formatting check of make test (tests/format/check-format.sh).
  clang-format-19
  # The Python module (bindings/python) and its pytest suite; pkg-config for
  # the install examples (examples/install).
  python3-dev python3-pybind11 pybind11-dev python3-pytest python3-numpy
  pkg-config
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "geflow: installing missing Debian packages: ${missing[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
