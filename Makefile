# Thin wrapper: every real rule lives in CMake. `make test` and `make demo` are the
# two commands a user needs; both install missing Debian packages first.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test demo bench bench-ort clean fuzz test-asan test-tsan configure-asan install

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

# geflow against ONNX Runtime on the zoo (exported into MODELS, by default
# build/bench/zoo) and the small models; ISA=avx2 forces geflow's AVX2 kernels,
# ORT_ISA=avx2 ONNX Runtime's. THREADS, RUNS, ROUNDS: scripts/bench-ort.sh.
bench-ort: configure
	@cmake --build $(BUILD_DIR) --target geflow -j $(JOBS)
	@ISA=$(ISA) ORT_ISA=$(ORT_ISA) scripts/bench-ort.sh $(BUILD_DIR) $(MODELS)

# Sanitizer builds, each in its own folder, with clang-19 (scripts/install-deps.sh).
# build-asan is ASan + UBSan + libFuzzer's coverage hooks: one instrumented build
# serves both `make test-asan` and `make fuzz`.
ASAN_BUILD_DIR ?= build-asan
TSAN_BUILD_DIR ?= build-tsan
FUZZ_SECONDS ?= 60
SAN_CMAKE = CC=clang-19 CXX=clang++-19 cmake -S . -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	"-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
# Reports stop the test; LeakSanitizer runs too. Third-party suppressions: tests/sanitizers/.
export ASAN_OPTIONS ?= detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/sanitizers/tsan.supp
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/sanitizers/lsan.supp

configure-asan: deps
	@$(SAN_CMAKE) -B $(ASAN_BUILD_DIR) -DGEFLOW_SANITIZE=address,undefined -DGEFLOW_FUZZ=ON $(CMAKE_FLAGS) >/dev/null

# The suite under ASan + UBSan: everything, or ASAN_TARGETS and the tests
# labelled ASAN_LABELS (a ctest -L regex).
ASAN_TARGETS ?= all
ASAN_LABELS ?=
test-asan: configure-asan build
	@cmake --build $(ASAN_BUILD_DIR) -j $(JOBS) --target $(ASAN_TARGETS)
	@cd $(ASAN_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) $(if $(ASAN_LABELS),-L '$(ASAN_LABELS)')

# Each of FUZZ_TARGETS for FUZZ_SECONDS (tests/fuzz/README.md). OM seeds are
# compiled by SEED_BUILD_DIR's geflow (built here unless it is another folder).
FUZZ_TARGETS ?= geflow-fuzz-onnx-import geflow-fuzz-om-load geflow-fuzz-stream-plan \
	geflow-fuzz-soc-spec geflow-fuzz-runtime
SEED_BUILD_DIR ?= $(ASAN_BUILD_DIR)
fuzz: configure-asan
	@cmake --build $(ASAN_BUILD_DIR) -j $(JOBS) --target $(FUZZ_TARGETS) \
		$(if $(filter $(SEED_BUILD_DIR),$(ASAN_BUILD_DIR)),geflow geflow-stream-models)
	@SEED_BUILD_DIR=$(SEED_BUILD_DIR) tests/fuzz/run-fuzzers.sh $(ASAN_BUILD_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The threaded parts (runtime, executor) under TSan; see tests/sanitizers/README.md.
TSAN_TARGETS ?= geflow-runtime-tests geflow-executor-tests geflow-pipeline-sample \
	geflow-fuzz-runtime geflow-acl-classify_sync geflow-acl-classify_async \
	geflow-acl-dynamic_batch geflow-acl-contexts_threads
TSAN_LABELS ?= runtime|executor
# The AscendCL sample programs take their models from the normal build.
test-tsan: build
	@$(SAN_CMAKE) -B $(TSAN_BUILD_DIR) -DGEFLOW_SANITIZE=thread $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(TSAN_BUILD_DIR) -j $(JOBS) --target $(TSAN_TARGETS)
	@cd $(TSAN_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L '$(TSAN_LABELS)'

clean:
	rm -rf $(BUILD_DIR)

# Compile time and peak RSS per phase of the lanes graph at 10k, 30k
# and 100k nodes, opsets 13 and 17, with the growth between sizes. SIZES and
# OPSETS (comma-separated) override the sets.
.PHONY: bench-compile
bench-compile: configure
	@cmake --build $(BUILD_DIR) --target geflow -j $(JOBS)
	@scripts/bench-compile.sh $(BUILD_DIR)

# The tools, headers, shared libraries, geflow.pc, the CMake package and the
# Python module under PREFIX (cmake/GeflowInstall.cmake).
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX) >/dev/null
	@echo "geflow: installed into $(PREFIX)"
