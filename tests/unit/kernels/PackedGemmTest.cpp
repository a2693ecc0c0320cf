//===- PackedGemmTest.cpp - nn::gemmPacked against plain loops ------------===//
//
// Weights packed once (nn::packRows) and multiplied by a column matrix read in
// place: row ranges that start at a panel and end mid-panel, depths over one
// chunk, column counts with a narrow last panel, and leading dimensions wider
// than the matrices.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include "executor/kernels/NnPackedGemm.h"

#include <limits>
#include <utility>

using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

struct PackedCase {
  int64_t rows, depth, n, r0, r1;
};

TEST(PackedGemm, MatchesPlainLoops) {
  if (!nn::packedGemmAvailable())
    GTEST_SKIP() << "no AVX2 + FMA here";
  const PackedCase cases[] = {
      {6, 1, 16, 0, 6},     {5, 7, 3, 0, 5},       {13, 40, 33, 0, 13},
      {50, 300, 47, 0, 50}, {64, 600, 64, 12, 29}, {30, 257, 17, 24, 30},
  };
  unsigned seed = 7;
  for (const PackedCase &c : cases) {
    SCOPED_TRACE("rows " + std::to_string(c.rows) + " depth " +
                 std::to_string(c.depth) + " n " + std::to_string(c.n));
    const int64_t lda = c.depth + 3, ldb = c.n + 5, ldc = c.n + 2;
    std::vector<float> a = random(c.rows * lda, seed++);
    std::vector<float> b = random(c.depth * ldb, seed++);
    nn::PackedRows packed = nn::packRows(a.data(), c.rows, c.depth, lda);
    const int64_t outRows = c.r1 - c.r0;
    std::vector<float> got(outRows * ldc, 12345.0f);
    nn::gemmPacked(packed, c.r0, c.r1, c.n, b.data(), ldb, got.data(), ldc);
    std::vector<float> want(got);
    for (int64_t r = 0; r < outRows; ++r)
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(a[(c.r0 + r) * lda + k]) * b[k * ldb + j];
        want[r * ldc + j] = static_cast<float>(sum);
      }
    // Padding columns of C (j >= n) must be left alone.
    expectNearAbs(got, want);
  }
}

// The in-register epilogue (no apply): each row's bias added and the clamp
// applied as the last chunk of depth is stored, partial panels included;
// with an unbounded clamp, bias only.
TEST(PackedGemm, InRegisterEpilogueAddsBiasAndClamps) {
  if (!nn::packedGemmAvailable())
    GTEST_SKIP() << "no AVX2 + FMA here";
  const float inf = std::numeric_limits<float>::infinity();
  const int64_t rows = 13, depth = 300, n = 37, r0 = 6;
  std::vector<float> a = random(rows * depth, 31), b = random(depth * n, 32);
  std::vector<float> bias = random(rows, 33);
  nn::PackedRows packed = nn::packRows(a.data(), rows, depth, depth);
  for (auto [lo, hi] : {std::pair<float, float>{-0.05f, 0.1f}, {-inf, inf}}) {
    nn::RowEpilogue epilogue;
    epilogue.bias = bias.data();
    epilogue.lo = lo;
    epilogue.hi = hi;
    std::vector<float> got((rows - r0) * n, 12345.0f);
    nn::gemmPacked(packed, r0, rows, n, b.data(), n, got.data(), n, &epilogue);
    std::vector<float> want(got.size());
    for (int64_t r = r0; r < rows; ++r)
      for (int64_t j = 0; j < n; ++j) {
        double sum = bias[r];
        for (int64_t k = 0; k < depth; ++k)
          sum += double(a[r * depth + k]) * b[k * n + j];
        want[(r - r0) * n + j] =
            std::min(hi, std::max(lo, static_cast<float>(sum)));
      }
    expectNearAbs(got, want);
  }
}

// Both operands packed: A as the transpose of a [depth x rows] matrix
// (nn::packColumnsAsRows, in two depth slices into wider panels, as a conv
// packs a channel's taps at a time), B as the transpose of W (packed once);
// column ranges starting at any panel, ending mid-panel.
TEST(PackedGemm, PanelsMatchPlainLoops) {
  if (!nn::packedGemmAvailable())
    GTEST_SKIP() << "no AVX2 + FMA here";
  struct Case {
    int64_t rows, depth, cols, c0, c1;
  };
  const Case cases[] = {{1, 1, 1, 0, 1},
                        {6, 9, 16, 0, 16},
                        {49, 300, 40, 16, 40},
                        {13, 257, 21, 0, 21},
                        {36, 64, 512, 32, 64}};
  unsigned seed = 70;
  for (const Case &c : cases) {
    SCOPED_TRACE("rows " + std::to_string(c.rows) + " depth " +
                 std::to_string(c.depth) + " cols " + std::to_string(c.cols));
    const int64_t ldb = c.rows + 3, ldw = c.depth + 1, width = c.c1 - c.c0;
    std::vector<float> bt = random(c.depth * ldb, seed++); // A^T
    std::vector<float> w = random(c.cols * ldw, seed++);   // B^T
    std::vector<float> a(nn::rowPanelFloats(c.rows, c.depth), 12345.0f);
    const int64_t split = c.depth / 2, stride = nn::kPanelRows * c.depth;
    nn::packColumnsAsRows(bt.data(), ldb, split, c.rows, a.data(), stride);
    nn::packColumnsAsRows(bt.data() + split * ldb, ldb, c.depth - split, c.rows,
                          a.data() + split * nn::kPanelRows, stride);
    nn::PackedCols b = nn::packTransposedRows(w.data(), c.cols, c.depth, ldw);
    std::vector<float> got(c.rows * width, 12345.0f);
    nn::gemmPanels(a.data(), c.rows, b, c.c0, c.c1, got.data(), width);
    std::vector<float> want(got.size());
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t j = 0; j < width; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(bt[k * ldb + r]) * w[(c.c0 + j) * ldw + k];
        want[r * width + j] = static_cast<float>(sum);
      }
    expectNearAbs(got, want);
  }
}

// A linear layer's way: X's rows packed per run (nn::packRowsInto), the
// weights B [depth x cols] packed once as they lie (nn::packCols).
TEST(PackedGemm, RowsTimesPackedColumnsMatchPlainLoops) {
  if (!nn::packedGemmAvailable())
    GTEST_SKIP() << "no AVX2 + FMA here";
  struct Case {
    int64_t rows, depth, cols;
  };
  const Case cases[] = {{1, 1, 1}, {7, 33, 17}, {197, 64, 48}, {12, 300, 8}};
  unsigned seed = 90;
  for (const Case &c : cases) {
    SCOPED_TRACE("rows " + std::to_string(c.rows) + " depth " +
                 std::to_string(c.depth) + " cols " + std::to_string(c.cols));
    const int64_t lda = c.depth + 2, ldb = c.cols + 5;
    std::vector<float> x = random(c.rows * lda, seed++);
    std::vector<float> w = random(c.depth * ldb, seed++);
    std::vector<float> a(nn::rowPanelFloats(c.rows, c.depth), 12345.0f);
    nn::packRowsInto(x.data(), c.rows, c.depth, lda, a.data());
    nn::PackedCols b = nn::packCols(w.data(), c.depth, c.cols, ldb);
    std::vector<float> got(c.rows * c.cols, 12345.0f);
    nn::gemmPanels(a.data(), c.rows, b, 0, c.cols, got.data(), c.cols);
    std::vector<float> want(got.size());
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t j = 0; j < c.cols; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.depth; ++k)
          sum += double(x[r * lda + k]) * w[k * ldb + j];
        want[r * c.cols + j] = static_cast<float>(sum);
      }
    expectNearAbs(got, want);
  }
}

} // namespace
