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

} // namespace
