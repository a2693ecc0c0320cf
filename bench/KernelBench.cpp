//===- KernelBench.cpp - the hot kernels on the zoo's shapes --------------===//
//
// `make bench-ort` compares whole models against ONNX Runtime; when one is
// behind, this says whether the GEMM under it is: GFLOP/s of nn::gemmPacked
// (conv weights as rows, positions as columns) and nn::gemmPanels (positions
// or tokens as rows, weights packed as columns) on shapes taken from the zoo,
// on the ISA geflow picked (GEFLOW_ISA caps it; HostIsaContext.h records
// it). gemmPanels is also run in column slices of `slice` channels, as a
// caller splitting its channels into work items would call it. The
// activations the convs fuse (vmath's swish, sigmoid, GELU) are timed on a
// row in L1, where a conv's epilogue finds it, in floats per second.
//
//===----------------------------------------------------------------------===//

#include "HostIsaContext.h"

#include "executor/kernels/conv/ConvWinograd.h"
#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/VectorMath.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace geflow::kernels;

std::vector<float> randomValues(int64_t count) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float &x : v)
    x = dist(rng);
  return v;
}

void setFlops(benchmark::State &state, int64_t m, int64_t n, int64_t k) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * m * n * k * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

/// rows x depth weights packed at load, times a depth x cols activation.
void BM_GemmPacked(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const std::vector<float> a = randomValues(m * k), b = randomValues(k * n);
  std::vector<float> c(m * n);
  const nn::PackedRows packed = nn::packRows(a.data(), m, k, k);
  for (auto _ : state) {
    nn::gemmPacked(packed, 0, m, n, b.data(), n, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  setFlops(state, m, n, k);
}

/// `layers` [rows x cols] weights of their own random values, each packed
/// by pack(values, rows, cols): a model's layers, too many to stay cached.
template <class Pack>
auto packLayers(int64_t layers, int64_t rows, int64_t cols, Pack pack) {
  std::vector<decltype(pack(nullptr, rows, cols))> packed;
  for (int64_t i = 0; i < layers; ++i)
    packed.push_back(pack(randomValues(rows * cols).data(), rows, cols));
  return packed;
}

/// A chain of 1x1 convs as a model runs them: `layers` pairs of m -> k and
/// k -> m channels on n positions, each with its own weights (read from
/// DRAM, as a model's are once per run) and reading the activation the
/// previous one wrote; bias and ReLU as the convs fuse them.
void BM_GemmPackedChain(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const int64_t layers = state.range(3);
  auto pack = [](const float *w, int64_t rows, int64_t cols) {
    return nn::packRows(w, rows, cols, cols);
  };
  const auto wide = packLayers(layers, m, k, pack);
  const auto narrow = packLayers(layers, k, m, pack);
  const std::vector<float> bias = randomValues(std::max(m, k));
  std::vector<float> big = randomValues(k * n), small(m * n);
  nn::RowEpilogue epilogue;
  epilogue.bias = bias.data();
  epilogue.lo = 0.0f;
  for (auto _ : state) {
    for (int64_t i = 0; i < layers; ++i) {
      nn::gemmPacked(wide[i], 0, m, n, big.data(), n, small.data(), n,
                     &epilogue);
      nn::gemmPacked(narrow[i], 0, k, n, small.data(), n, big.data(), n,
                     &epilogue);
    }
    benchmark::DoNotOptimize(big.data());
  }
  setFlops(state, m, n, 2 * k * layers);
}

/// rows x depth activations packed per run, times weights packed once as
/// columns, `slice` columns per call (0: all at once).
void BM_GemmPanels(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const int64_t slice = state.range(3) ? state.range(3) : n;
  const std::vector<float> a = randomValues(m * k), b = randomValues(k * n);
  std::vector<float> panels(nn::rowPanelFloats(m, k)), c(m * n);
  const int64_t copies = std::max<int64_t>(1, state.range(4));
  std::vector<nn::PackedCols> packed;
  for (int64_t i = 0; i < copies; ++i)
    packed.push_back(nn::packCols(b.data(), k, n, n));
  int64_t next = 0;
  for (auto _ : state) {
    nn::packRowsInto(a.data(), m, k, k, panels.data());
    const nn::PackedCols &w = packed[next];
    next = (next + 1) % copies;
    for (int64_t c0 = 0; c0 < n; c0 += slice) {
      const int64_t c1 = std::min(n, c0 + slice);
      nn::gemmPanels(panels.data(), m, w, c0, c1, c.data() + c0, n);
    }
    benchmark::DoNotOptimize(c.data());
  }
  setFlops(state, m, n, k);
}

/// A transformer MLP's linear layers as a model runs them: `layers` pairs
/// of n -> k and k -> n features on m tokens, each with its own weights
/// (packed at load, read from DRAM once per run), each packing the
/// activation the previous one wrote.
void BM_GemmPanelsChain(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const int64_t layers = state.range(3);
  auto pack = [](const float *w, int64_t rows, int64_t cols) {
    return nn::packCols(w, rows, cols, cols);
  };
  const auto up = packLayers(layers, n, k, pack);
  const auto down = packLayers(layers, k, n, pack);
  std::vector<float> narrow = randomValues(m * n), wide(m * k);
  std::vector<float> panels(nn::rowPanelFloats(m, std::max(n, k)));
  for (auto _ : state) {
    for (int64_t i = 0; i < layers; ++i) {
      nn::packRowsInto(narrow.data(), m, n, n, panels.data());
      nn::gemmPanels(panels.data(), m, up[i], 0, k, wide.data(), k);
      nn::packRowsInto(wide.data(), m, k, k, panels.data());
      nn::gemmPanels(panels.data(), m, down[i], 0, n, narrow.data(), n);
    }
    benchmark::DoNotOptimize(narrow.data());
  }
  setFlops(state, m, n, 2 * k * layers);
}

/// A 3x3 stride-1 pad-1 conv of `channels` -> `channels` on a size x size
/// map by Winograd, in the work items ConvPlan gives it (blocks of
/// blockTileRows rows of tiles, all output channels); GFLOP/s counts the
/// direct conv's multiply-adds, as a user compares convs.
void BM_Winograd(benchmark::State &state) {
  const int64_t c = state.range(0), size = state.range(1);
  nn::Window w;
  w.rank = 2;
  w.in[1] = w.in[2] = w.out[1] = w.out[2] = size;
  w.kernel[1] = w.kernel[2] = 3;
  w.padBegin[1] = w.padBegin[2] = w.padEnd[1] = w.padEnd[2] = 1;
  const std::vector<float> x = randomValues(c * size * size),
                           weights = randomValues(c * c * 9);
  std::vector<float> y(c * size * size);
  const nn::WinogradConv conv(w, c, c, weights.data());
  const int64_t block = nn::WinogradConv::blockTileRows(w, c);
  const int64_t tileRows = nn::WinogradConv::tileRows(w);
  std::vector<float> v(conv.inputFloats(block));
  nn::RowEpilogue keep;
  keep.apply = [](const void *, int64_t, float *, int64_t) {};
  for (auto _ : state) {
    for (int64_t ty0 = 0; ty0 < tileRows; ty0 += block) {
      const int64_t ty1 = std::min(tileRows, ty0 + block);
      conv.transformInput(x.data(), 0, ty0, ty1, v.data());
      const float *slice = v.data();
      conv.multiply(&slice, conv.depthTaps(0), ty0, ty1, 0, c, nullptr,
                    y.data(), keep);
    }
    benchmark::DoNotOptimize(y.data());
  }
  setFlops(state, c, size * size, 9 * c);
  state.counters["tiles/block"] = block * ((size + 3) / 4);
}

} // namespace

// ResNet-50's 3x3 convs on Winograd.
BENCHMARK(BM_Winograd)
    ->ArgNames({"c", "size"})
    ->Args({64, 56})
    ->Args({128, 28})
    ->Args({256, 14})
    ->Unit(benchmark::kMicrosecond);
// ResNet-50's convs as GEMMs: 1x1 at 56x56 and 14x14, 3x3 at 7x7 (im2col).
BENCHMARK(BM_GemmPacked)
    ->ArgNames({"m", "n", "k"})
    ->Args({64, 3136, 256})
    ->Args({256, 3136, 64})
    ->Args({1024, 196, 256})
    ->Args({512, 49, 4608})
    ->Args({256, 256, 256}) // a 1x1 conv's host tile of 256 columns
    ->Args({1024, 64, 256})
    ->Args({128, 512, 1152})
    ->Args({48, 14, 128})
    ->Args({48, 16, 256})
    ->Args({48, 32, 128})
    ->Args({48, 64, 128})
    ->Args({48, 64, 256})
    ->Unit(benchmark::kMicrosecond);
// ResNet-50's layer3 and layer4 1x1 convs in a chain, weights from DRAM.
BENCHMARK(BM_GemmPackedChain)
    ->ArgNames({"m", "n", "k", "layers"})
    ->Args({256, 196, 1024, 16})
    ->Args({512, 49, 2048, 8})
    ->Unit(benchmark::kMicrosecond);
// ConvNeXt-T's third stage's MLPs (9 blocks) and ViT-B/16's, weights from
// DRAM.
BENCHMARK(BM_GemmPanelsChain)
    ->ArgNames({"m", "n", "k", "layers"})
    ->Args({196, 384, 1536, 1})
    ->Args({196, 384, 1536, 9})
    ->Args({197, 768, 3072, 4})
    ->Unit(benchmark::kMicrosecond);
// Inception v3's 8x8 convs (positions as rows), ViT-B/16's linear layers.
BENCHMARK(BM_GemmPanels)
    ->ArgNames({"m", "n", "k", "slice", "copies"})
    ->Args({64, 384, 1280, 0, 1})
    ->Args({64, 384, 1280, 32, 1})
    ->Args({64, 192, 2048, 0, 1})
    ->Args({64, 192, 2048, 16, 1})
    ->Args({49, 512, 4608, 0, 1})
    ->Args({49, 512, 4608, 32, 1})
    ->Args({197, 768, 768, 0, 1})
    ->Args({197, 3072, 768, 0, 1})
    ->Args({66, 3072, 768, 288, 1})
    ->Args({66, 3072, 768, 0, 1})
    ->Args({66, 768, 3072, 80, 1})
    ->Args({66, 768, 3072, 0, 1})
    ->Args({197, 768, 3072, 0, 1})
    ->Args({197, 768, 3072, 0, 16})
    ->Args({49, 512, 4608, 0, 8})
    ->Args({49, 2048, 512, 0, 32})
    ->Unit(benchmark::kMicrosecond);

/// An activation over `n` floats in L1 (a conv epilogue's rows), written
/// to a second buffer; inputs over [-8, 8], where networks feed them.
template <void (*Activation)(const float *, float *, int64_t)>
void BM_Activation(benchmark::State &state) {
  const int64_t n = state.range(0);
  std::vector<float> x = randomValues(n), y(n);
  for (float &v : x)
    v *= 8.0f;
  for (auto _ : state) {
    Activation(x.data(), y.data(), n);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.counters["Gfloat/s"] = benchmark::Counter(1e-9 * n * state.iterations(),
                                                  benchmark::Counter::kIsRate);
}
void swishOf(const float *x, float *y, int64_t n) {
  vmath::swish(x, y, n, 1.0f);
}
void sigmoidOf(const float *x, float *y, int64_t n) {
  vmath::sigmoid(x, y, n, 0.0f);
}
void geluOf(const float *x, float *y, int64_t n) { vmath::gelu(x, y, n, 0.0f); }
BENCHMARK(BM_Activation<swishOf>)->Name("BM_Swish")->Arg(4096);
BENCHMARK(BM_Activation<sigmoidOf>)->Name("BM_Sigmoid")->Arg(4096);
BENCHMARK(BM_Activation<geluOf>)->Name("BM_Gelu")->Arg(4096);

BENCHMARK_MAIN();
