//===- PackedGemmTest.cpp - nn::gemmPacked and gemmPanels against loops ---===//
//
// Weights packed once (nn::packRows) and multiplied by a column matrix read in
// place: row ranges that start at a panel and end mid-panel, depths over one
// chunk, column counts with a narrow last panel or tile, leading dimensions
// wider than the matrices, B as shifted groups of rows, both epilogues; and
// both operands packed (gemmPanels). Every test runs under each body this
// CPU has (AVX2 + FMA, AVX-512), against plain loops in double.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/isa/CpuIsa.h"

#include <limits>
#include <utility>

using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// Runs each test's checks once under each body this CPU runs.
class PackedGemm : public ::testing::Test {
protected:
  /// `check()` under each ISA with a packed GEMM body, the ISA in the trace.
  template <class Fn> void forEachBody(Fn check) {
    int ran = 0;
    for (cpu::Isa isa : machineIsas()) {
      IsaScope scope(isa);
      if (!nn::packedGemmAvailable())
        continue;
      SCOPED_TRACE(scope.name());
      check();
      ++ran;
    }
    if (ran == 0)
      GTEST_SKIP() << "no AVX2 + FMA here";
  }
};

std::string shape(int64_t rows, int64_t depth, int64_t n) {
  return "rows " + std::to_string(rows) + " depth " + std::to_string(depth) +
         " n " + std::to_string(n);
}

struct PackedCase {
  int64_t rows, depth, n, r0, r1;
};

TEST_F(PackedGemm, MatchesPlainLoops) {
  const PackedCase cases[] = {
      {6, 1, 16, 0, 6},      {5, 7, 3, 0, 5},       {13, 40, 33, 0, 13},
      {50, 300, 47, 0, 50},  {64, 600, 64, 12, 29}, {30, 257, 17, 24, 30},
      {1, 5, 13, 0, 1},      {7, 33, 130, 0, 7},    {20, 1, 13, 6, 20},
      {12, 100, 128, 0, 12}, {18, 129, 64, 0, 18},  {13, 257, 77, 0, 13},
      {25, 64, 200, 6, 25},  {48, 50, 16, 0, 48},   {31, 20, 40, 0, 31}};
  unsigned seed = 7;
  for (const PackedCase &c : cases) {
    SCOPED_TRACE(shape(c.rows, c.depth, c.n));
    const int64_t lda = c.depth + 3, ldb = c.n + 5, ldc = c.n + 2;
    std::vector<float> a = random(c.rows * lda, seed++);
    std::vector<float> b = random(c.depth * ldb, seed++);
    nn::PackedRows packed = nn::packRows(a.data(), c.rows, c.depth, lda);
    const int64_t outRows = c.r1 - c.r0;
    std::vector<float> want(outRows * ldc, 12345.0f);
    for (int64_t r = 0; r < outRows; ++r)
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(a[(c.r0 + r) * lda + k]) * b[k * ldb + j];
        want[r * ldc + j] = static_cast<float>(sum);
      }
    forEachBody([&] {
      std::vector<float> got(outRows * ldc, 12345.0f);
      nn::gemmPacked(packed, c.r0, c.r1, c.n, b.data(), ldb, got.data(), ldc);
      // Padding columns of C (j >= n) must be left alone.
      expectNearAbs(got, want);
    });
  }
}

// The in-register epilogue (no apply): each row's bias added and the clamp
// applied as the last chunk of depth is stored, partial panels and narrow
// tiles included; with an unbounded clamp, bias only.
TEST_F(PackedGemm, InRegisterEpilogueAddsBiasAndClamps) {
  const float inf = std::numeric_limits<float>::infinity();
  const PackedCase cases[] = {{13, 300, 37, 6, 13},
                              {7, 257, 13, 0, 7},
                              {1, 1, 70, 0, 1},
                              {30, 200, 16, 0, 30}};
  unsigned seed = 31;
  for (const PackedCase &c : cases) {
    SCOPED_TRACE(shape(c.rows, c.depth, c.n));
    std::vector<float> a = random(c.rows * c.depth, seed++),
                       b = random(c.depth * c.n, seed++);
    std::vector<float> bias = random(c.rows, seed++);
    nn::PackedRows packed = nn::packRows(a.data(), c.rows, c.depth, c.depth);
    for (auto [lo, hi] : {std::pair<float, float>{-0.05f, 0.1f}, {-inf, inf}}) {
      nn::RowEpilogue epilogue;
      epilogue.bias = bias.data();
      epilogue.lo = lo;
      epilogue.hi = hi;
      std::vector<float> want((c.r1 - c.r0) * c.n);
      for (int64_t r = c.r0; r < c.r1; ++r)
        for (int64_t j = 0; j < c.n; ++j) {
          double sum = bias[r];
          for (int64_t k = 0; k < c.depth; ++k)
            sum += double(a[r * c.depth + k]) * b[k * c.n + j];
          want[(r - c.r0) * c.n + j] =
              std::min(hi, std::max(lo, static_cast<float>(sum)));
        }
      forEachBody([&] {
        std::vector<float> got(want.size(), 12345.0f);
        nn::gemmPacked(packed, c.r0, c.r1, c.n, b.data(), c.n, got.data(), c.n,
                       &epilogue);
        expectNearAbs(got, want);
      });
    }
  }
}

/// What the apply epilogue saw: each row once, finished.
struct Seen {
  std::vector<int> calls;
  int64_t r0 = 0;
  static void apply(const void *context, int64_t row, float *data, int64_t n) {
    auto *seen = const_cast<Seen *>(static_cast<const Seen *>(context));
    ++seen->calls[row - seen->r0];
    for (int64_t j = 0; j < n; ++j)
      data[j] = 2.0f * data[j] + static_cast<float>(row);
  }
};

// RowEpilogue::apply runs once on each row, after its last chunk of depth
// (rows past one row block: C is 64 K floats per block at most).
TEST_F(PackedGemm, ApplyEpilogueSeesEachFinishedRowOnce) {
  const PackedCase cases[] = {{40, 300, 2000, 6, 40}, {7, 20, 13, 0, 7}};
  unsigned seed = 51;
  for (const PackedCase &c : cases) {
    SCOPED_TRACE(shape(c.rows, c.depth, c.n));
    std::vector<float> a = random(c.rows * c.depth, seed++),
                       b = random(c.depth * c.n, seed++);
    nn::PackedRows packed = nn::packRows(a.data(), c.rows, c.depth, c.depth);
    std::vector<float> want((c.r1 - c.r0) * c.n);
    for (int64_t r = c.r0; r < c.r1; ++r)
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(a[r * c.depth + k]) * b[k * c.n + j];
        want[(r - c.r0) * c.n + j] = 2.0f * static_cast<float>(sum) + r;
      }
    forEachBody([&] {
      Seen seen;
      seen.calls.assign(c.r1 - c.r0, 0);
      seen.r0 = c.r0;
      nn::RowEpilogue epilogue{&Seen::apply, &seen};
      std::vector<float> got(want.size(), 12345.0f);
      nn::gemmPacked(packed, c.r0, c.r1, c.n, b.data(), c.n, got.data(), c.n,
                     &epilogue);
      EXPECT_EQ(seen.calls, std::vector<int>(c.r1 - c.r0, 1));
      expectNearAbs(got, want, 4e-4);
    });
  }
}

// B as groups of rows at offsets of their own in one buffer (a shifted
// conv's taps over its padded input): chunks of depth end at each group,
// read in place when shallow, copied when deep.
TEST_F(PackedGemm, GroupedRowsOfB) {
  struct Case {
    int64_t rows, groupDepth, groups, n;
  };
  const Case cases[] = {{13, 40, 3, 70}, {7, 150, 2, 64}, {12, 1, 5, 13}};
  unsigned seed = 61;
  for (const Case &c : cases) {
    const int64_t depth = c.groupDepth * c.groups, ldb = c.n + 9;
    SCOPED_TRACE(shape(c.rows, depth, c.n));
    std::vector<int64_t> offsets;
    for (int64_t g = 0; g < c.groups; ++g)
      offsets.push_back(((g * 5) % 7) * ldb + g % 3); // out of order
    std::vector<float> base = random((c.groupDepth + 7) * ldb + 8, seed++);
    std::vector<float> a = random(c.rows * depth, seed++);
    nn::PackedRows packed = nn::packRows(a.data(), c.rows, depth, depth);
    std::vector<float> want(c.rows * c.n);
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < depth; ++k)
          sum += double(a[r * depth + k]) *
                 base[offsets[k / c.groupDepth] + (k % c.groupDepth) * ldb + j];
        want[r * c.n + j] = static_cast<float>(sum);
      }
    forEachBody([&] {
      nn::BRows b{base.data(), ldb, c.groupDepth, offsets.data()};
      std::vector<float> got(want.size(), 12345.0f);
      nn::gemmPacked(packed, 0, c.rows, c.n, b, got.data(), c.n);
      expectNearAbs(got, want);
    });
  }
}

// Both operands packed: A as the transpose of a [depth x rows] matrix
// (nn::packColumnsAsRows, in two depth slices into wider panels, as a conv
// packs a channel's taps at a time), B as the transpose of W (packed once);
// column ranges starting at any panel, ending mid-panel.
TEST_F(PackedGemm, PanelsMatchPlainLoops) {
  struct Case {
    int64_t rows, depth, cols, c0, c1;
  };
  const Case cases[] = {{1, 1, 1, 0, 1},         {6, 9, 16, 0, 16},
                        {49, 300, 40, 16, 40},   {13, 257, 21, 0, 21},
                        {36, 64, 512, 32, 64},   {7, 1, 13, 0, 13},
                        {25, 257, 130, 16, 130}, {49, 129, 200, 0, 200},
                        {30, 40, 16, 0, 16},     {48, 20, 48, 16, 32}};
  unsigned seed = 70;
  for (const Case &c : cases) {
    SCOPED_TRACE(shape(c.rows, c.depth, c.cols));
    const int64_t ldb = c.rows + 3, ldw = c.depth + 1, width = c.c1 - c.c0;
    std::vector<float> bt = random(c.depth * ldb, seed++); // A^T
    std::vector<float> w = random(c.cols * ldw, seed++);   // B^T
    std::vector<float> a(nn::rowPanelFloats(c.rows, c.depth), 12345.0f);
    const int64_t split = c.depth / 2, stride = nn::kPanelRows * c.depth;
    nn::packColumnsAsRows(bt.data(), ldb, split, c.rows, a.data(), stride);
    nn::packColumnsAsRows(bt.data() + split * ldb, ldb, c.depth - split, c.rows,
                          a.data() + split * nn::kPanelRows, stride);
    nn::PackedCols b = nn::packTransposedRows(w.data(), c.cols, c.depth, ldw);
    std::vector<float> want(c.rows * width);
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t j = 0; j < width; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(bt[k * ldb + r]) * w[(c.c0 + j) * ldw + k];
        want[r * width + j] = static_cast<float>(sum);
      }
    forEachBody([&] {
      std::vector<float> got(c.rows * width, 12345.0f);
      nn::gemmPanels(a.data(), c.rows, b, c.c0, c.c1, got.data(), width);
      expectNearAbs(got, want);
    });
  }
}

// A linear layer's way: X's rows packed per run (nn::packRowsInto), the
// weights B [depth x cols] packed once as they lie (nn::packCols).
TEST_F(PackedGemm, RowsTimesPackedColumnsMatchPlainLoops) {
  struct Case {
    int64_t rows, depth, cols;
  };
  const Case cases[] = {
      {1, 1, 1}, {7, 33, 17}, {197, 64, 48}, {12, 300, 8}, {13, 129, 77}};
  unsigned seed = 90;
  for (const Case &c : cases) {
    SCOPED_TRACE(shape(c.rows, c.depth, c.cols));
    const int64_t lda = c.depth + 2, ldb = c.cols + 5;
    std::vector<float> x = random(c.rows * lda, seed++);
    std::vector<float> w = random(c.depth * ldb, seed++);
    std::vector<float> a(nn::rowPanelFloats(c.rows, c.depth), 12345.0f);
    nn::packRowsInto(x.data(), c.rows, c.depth, lda, a.data());
    nn::PackedCols b = nn::packCols(w.data(), c.depth, c.cols, ldb);
    std::vector<float> want(c.rows * c.cols);
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t j = 0; j < c.cols; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(x[r * lda + k]) * w[k * ldb + j];
        want[r * c.cols + j] = static_cast<float>(sum);
      }
    forEachBody([&] {
      std::vector<float> got(c.rows * c.cols, 12345.0f);
      nn::gemmPanels(a.data(), c.rows, b, 0, c.cols, got.data(), c.cols);
      expectNearAbs(got, want);
    });
  }
}

} // namespace
