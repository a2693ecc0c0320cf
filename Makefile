# Thin wrapper: every real rule lives in CMake. `make test` and `make demo` are the
# two commands a user needs; both install missing Debian packages first.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test demo bench bench-ort clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD_DIR)

bench: build
	@cmake --build $(BUILD_DIR) --target geflow-bench -j $(JOBS)
	@scripts/bench.sh $(BUILD_DIR)

# geflow against ONNX Runtime; MODELS=folder adds that folder's .onnx files.
bench-ort: configure
	@cmake --build $(BUILD_DIR) --target geflow -j $(JOBS)
	@scripts/bench-ort.sh $(BUILD_DIR) $(MODELS)

clean:
	rm -rf $(BUILD_DIR)
