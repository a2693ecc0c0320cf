//===- HostIsaContext.h - the host ISA in benchmark context -----*- C++ -*-===//
//
// A figure measured on AVX2 kernels says nothing about the AVX-512 ones, so
// each benchmark binary records the instruction set the host kernels run on
// (GEFLOW_ISA applied) in Google Benchmark's context: printed in the header
// of the console output and stored as context.host_isa in --benchmark_out
// JSON, where scripts/bench.sh reads it. Include it in one file per binary.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_BENCH_HOSTISACONTEXT_H
#define GEFLOW_BENCH_HOSTISACONTEXT_H

#include "executor/kernels/isa/CpuIsa.h"

#include <benchmark/benchmark.h>

namespace geflow::bench {
namespace {

// Before main: AddCustomContext only fills a map that RunSpecifiedBenchmarks
// reads, and it allocates that map on first use, so static order is safe.
// Internal linkage: an initializer with side effects is always run.
[[maybe_unused]] const bool kHostIsaContext = [] {
  namespace cpu = kernels::cpu;
  benchmark::AddCustomContext("host_isa", cpu::isaName(cpu::activeIsa()));
  benchmark::AddCustomContext("host_cpu", cpu::cpuModelName());
  return true;
}();

} // namespace
} // namespace geflow::bench

#endif // GEFLOW_BENCH_HOSTISACONTEXT_H
