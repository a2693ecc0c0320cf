//===- GemmTest.cpp - gemm and matmul against direct loops ---------------===//
//
// Every case runs under each ISA the machine has, with B given at run time
// (nn::gemm) and as a constant at creation (packed once, gemmPanels on AVX2
// and up).
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

rt::Status runOp(const om::OpDef &op, const std::vector<const float *> &in,
                 float *out, uint32_t blockDim, bool constantB = false) {
  return runBuffers(op, {in.begin(), in.end()}, {out}, blockDim,
                    {rt::Engine::kAic, true, constantB ? 1 : -1});
}

/// fn(trace, blocks, constantB) under each ISA, block count and B's kind.
template <class Fn> void forEachVariant(Fn fn) {
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    for (bool constantB : {false, true})
      for (uint32_t blocks : {1u, 3u, 7u})
        fn(scope.name() + (constantB ? " constant B" : " B at run time") +
               " blocks=" + std::to_string(blocks),
           blocks, constantB);
  }
}

struct GemmCase {
  int64_t m, n, k;
  bool transA, transB;
  std::vector<int64_t> cShape; // {-1}: no C
  float alpha, beta;
  bool setAttrs;
};

TEST(GemmKernel, MatchesDirectLoops) {
  std::vector<GemmCase> cases = {
      {5, 7, 3, false, false, {5, 7}, 1.0f, 1.0f, false},
      {37, 11, 13, false, false, {-1}, 1.0f, 1.0f, false},
      {37, 11, 13, true, false, {11}, 0.5f, 2.0f, true},
      {17, 9, 21, false, true, {17, 1}, 1.5f, -1.0f, true},
      {17, 9, 21, true, true, {1, 9}, 1.0f, 0.25f, true},
      {8, 4, 6, true, true, {}, 2.0f, 1.0f, true},
      {8, 4, 6, false, false, {1}, 1.0f, 0.0f, true},
      {1, 33, 65, false, true, {1, 33}, 1.0f, 1.0f, true},
      {64, 1, 16, true, false, {64, 1}, 1.0f, 1.0f, true},
      // Few rows: the output splits into column tiles too.
      {1, 300, 17, false, true, {300}, 1.0f, 1.0f, true},
      {3, 257, 9, true, false, {3, 1}, 0.5f, 2.0f, true},
      {12, 1000, 5, false, false, {-1}, 1.0f, 1.0f, false},
      // Edge shapes of the packed path: one row, a partial column panel,
      // depth 1, rows past one pack (198) and depth past one chunk (256).
      {1, 17, 1, false, false, {17}, 1.0f, 1.0f, true},
      {13, 17, 1, true, true, {-1}, 2.0f, 1.0f, true},
      {200, 40, 300, false, true, {40}, 1.0f, 1.0f, true},
      {101, 33, 260, true, false, {101, 1}, 0.5f, 0.5f, true},
      // B over kStreamedWeightBytes: tiles shaped for streaming B.
      {20, 1000, 1100, false, true, {1000}, 1.0f, 1.0f, true},
  };
  unsigned seed = 1;
  for (const GemmCase &c : cases) {
    om::OpDef op;
    op.set_name("gemm0");
    op.set_type("gemm");
    std::vector<int64_t> aShape = c.transA ? std::vector<int64_t>{c.k, c.m}
                                           : std::vector<int64_t>{c.m, c.k};
    std::vector<int64_t> bShape = c.transB ? std::vector<int64_t>{c.n, c.k}
                                           : std::vector<int64_t>{c.k, c.n};
    bool hasC = c.cShape != std::vector<int64_t>{-1};
    *op.add_input_desc() = desc(aShape);
    *op.add_input_desc() = desc(bShape);
    if (hasC)
      *op.add_input_desc() = desc(c.cShape);
    *op.add_output_desc() = desc({c.m, c.n});
    if (c.setAttrs) {
      setInt(op, "transA", c.transA);
      setInt(op, "transB", c.transB);
      setFloat(op, "alpha", c.alpha);
      setFloat(op, "beta", c.beta);
    }
    std::vector<float> a = random(count(aShape), seed++);
    std::vector<float> b = random(count(bShape), seed++);
    std::vector<float> cv =
        hasC ? random(count(c.cShape), seed++) : std::vector<float>{};
    // C's unidirectional broadcast to [M, N].
    std::vector<int64_t> cs = c.cShape;
    if (hasC)
      cs.insert(cs.begin(), 2 - cs.size(), 1);
    std::vector<float> want(c.m * c.n);
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < c.k; ++p) {
          float av = c.transA ? a[p * c.m + i] : a[i * c.k + p];
          float bv = c.transB ? b[j * c.k + p] : b[p * c.n + j];
          acc += double(av) * bv;
        }
        double v = c.alpha * acc;
        if (hasC)
          v += c.beta * cv[(cs[0] == 1 ? 0 : i) * cs[1] + (cs[1] == 1 ? 0 : j)];
        want[i * c.n + j] = static_cast<float>(v);
      }
    forEachVariant([&](const std::string &trace, uint32_t blocks,
                       bool constantB) {
      std::vector<float> got(c.m * c.n, 12345.0f);
      ASSERT_TRUE(runOp(op, {a.data(), b.data(), hasC ? cv.data() : nullptr},
                        got.data(), blocks, constantB)
                      .isOk());
      SCOPED_TRACE("m=" + std::to_string(c.m) + " " + trace);
      expectNearAbs(got, want, 1e-4 * std::max<double>(1.0, c.k / 16.0));
    });
  }
}

TEST(GemmKernel, PlanCountsFlopsAndBytes) {
  om::OpDef op;
  op.set_name("fc");
  op.set_type("gemm");
  *op.add_input_desc() = desc({64, 128});
  *op.add_input_desc() = desc({128, 256});
  *op.add_output_desc() = desc({64, 256});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAic);
  EXPECT_DOUBLE_EQ(plan.cost.flops, 2.0 * 64 * 128 * 256);
  EXPECT_DOUBLE_EQ(plan.cost.bytes, 4.0 * (64 * 128 + 128 * 256 + 64 * 256));
  EXPECT_GT(plan.maxBlocks, 1u);
}

TEST(GemmKernel, OneRowSplitsOverColumns) {
  om::OpDef op;
  op.set_name("fc");
  op.set_type("gemm");
  *op.add_input_desc() = desc({1, 2048});
  *op.add_input_desc() = desc({1000, 2048});
  *op.add_input_desc() = desc({1000});
  *op.add_output_desc() = desc({1, 1000});
  (*op.mutable_attr())["transB"].set_i(1);
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_GE(plan.maxBlocks, 8u);
}

TEST(GemmKernel, RejectsNonFloatAndBadShapes) {
  om::OpDef op;
  op.set_name("fc");
  op.set_type("gemm");
  *op.add_input_desc() = desc({4, 8}, om::DT_INT32);
  *op.add_input_desc() = desc({8, 2}, om::DT_INT32);
  *op.add_output_desc() = desc({4, 2}, om::DT_INT32);
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'fc' (gemm)"), std::string::npos);
  EXPECT_NE(st.message().find("int32"), std::string::npos);

  op.mutable_input_desc(0)->set_dtype(om::DT_FLOAT);
  op.mutable_input_desc(1)->set_dtype(om::DT_FLOAT);
  op.mutable_output_desc(0)->set_dtype(om::DT_FLOAT);
  op.mutable_input_desc(1)->set_shape(0, 7);
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("inner dimensions"), std::string::npos);
}

TEST(MatMulKernel, NumpySemantics) {
  struct Case {
    std::vector<int64_t> a, b, y;
  };
  std::vector<Case> cases = {
      {{3, 4}, {4, 5}, {3, 5}},
      {{2, 3, 4}, {4, 5}, {2, 3, 5}},
      {{2, 3, 4}, {2, 4, 5}, {2, 3, 5}},
      {{4}, {4, 5}, {5}},
      {{2, 3, 4}, {4}, {2, 3}},
      {{4}, {4}, {}},
      {{2, 1, 3, 4}, {5, 4, 6}, {2, 5, 3, 6}},
      {{3, 4}, {2, 4, 5}, {2, 3, 5}},
      {{4}, {3, 4, 2}, {3, 2}},
      {{1, 19, 16}, {3, 16, 9}, {3, 19, 9}},
      {{40, 16}, {16, 1}, {40, 1}},
      {{7}, {7, 300}, {300}},
      {{2, 1, 5}, {5, 260}, {2, 1, 260}},
      {{2, 3, 5}, {2, 5, 129}, {2, 3, 129}},
      // A constant B broadcast over A's batch, and an M = 1 row.
      {{3, 7, 20}, {20, 33}, {3, 7, 33}},
      {{1, 1, 64}, {64, 17}, {1, 1, 17}},
  };
  unsigned seed = 100;
  for (const Case &c : cases) {
    om::OpDef op;
    op.set_name("mm");
    op.set_type("matmul");
    *op.add_input_desc() = desc(c.a);
    *op.add_input_desc() = desc(c.b);
    *op.add_output_desc() = desc(c.y);
    std::vector<float> a = random(count(c.a), seed++);
    std::vector<float> b = random(count(c.b), seed++);
    // Reference: promote, broadcast batch dims, direct loops.
    std::vector<int64_t> as = c.a, bs = c.b;
    if (as.size() == 1)
      as.insert(as.begin(), 1);
    if (bs.size() == 1)
      bs.push_back(1);
    size_t rank = std::max(as.size(), bs.size());
    as.insert(as.begin(), rank - as.size(), 1);
    bs.insert(bs.begin(), rank - bs.size(), 1);
    int64_t m = as[rank - 2], k = as[rank - 1], n = bs[rank - 1];
    std::vector<int64_t> ob(rank - 2);
    int64_t batch = 1;
    for (size_t i = 0; i + 2 < rank; ++i)
      batch *= (ob[i] = std::max(as[i], bs[i]));
    std::vector<float> want(batch * m * n);
    for (int64_t bi = 0; bi < batch; ++bi) {
      int64_t rest = bi, aOff = 0, bOff = 0, aStr = 1, bStr = 1;
      for (size_t i = ob.size(); i-- > 0;) {
        int64_t coord = rest % ob[i];
        rest /= ob[i];
        aOff += (as[i] == 1 ? 0 : coord) * aStr;
        bOff += (bs[i] == 1 ? 0 : coord) * bStr;
        aStr *= as[i];
        bStr *= bs[i];
      }
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double acc = 0;
          for (int64_t p = 0; p < k; ++p)
            acc += double(a[aOff * m * k + i * k + p]) *
                   b[bOff * k * n + p * n + j];
          want[(bi * m + i) * n + j] = static_cast<float>(acc);
        }
    }
    forEachVariant([&](const std::string &trace, uint32_t blocks,
                       bool constantB) {
      std::vector<float> got(want.size(), 12345.0f);
      ASSERT_TRUE(runOp(op, {a.data(), b.data()}, got.data(), blocks, constantB)
                      .isOk());
      SCOPED_TRACE("case a rank " + std::to_string(c.a.size()) + " " + trace);
      expectNearAbs(got, want);
    });
  }
}

TEST(FusedGemmKernel, GemmThenActivation) {
  om::OpDef op;
  op.set_name("fc");
  op.set_type("fused_gemm");
  int64_t m = 5, n = 300, k = 7;
  *op.add_input_desc() = desc({m, k});
  *op.add_input_desc() = desc({n, k});
  *op.add_input_desc() = desc({n});
  *op.add_output_desc() = desc({m, n});
  (*op.mutable_attr())["transB"].set_i(1);
  (*op.mutable_attr())["activation"].set_s("clip");
  (*op.mutable_attr())["activation_params"].mutable_list()->add_f(-0.5f);
  (*op.mutable_attr())["activation_params"].mutable_list()->add_f(0.6f);
  std::vector<float> a = random(m * k, 1), b = random(n * k, 2),
                     c = random(n, 3);
  std::vector<float> want(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = c[j];
      for (int64_t p = 0; p < k; ++p)
        acc += double(a[i * k + p]) * b[j * k + p];
      want[i * n + j] =
          std::min(0.6f, std::max(-0.5f, static_cast<float>(acc)));
    }
  forEachVariant(
      [&](const std::string &trace, uint32_t blocks, bool constantB) {
        SCOPED_TRACE(trace);
        std::vector<float> got(m * n, 12345.0f);
        ASSERT_TRUE(runOp(op, {a.data(), b.data(), c.data()}, got.data(),
                          blocks, constantB)
                        .isOk());
        expectNearAbs(got, want);
      });
}

TEST(FusedMatMulKernel, BiasBroadcastAndRelu) {
  struct Case {
    Shape a, b, bias, y;
  };
  std::vector<Case> cases = {
      {{3, 4}, {4, 5}, {5}, {3, 5}},
      {{2, 3, 4}, {4, 5}, {5}, {2, 3, 5}},
      {{2, 3, 4}, {4, 5}, {3, 5}, {2, 3, 5}},
      {{2, 3, 4}, {4, 5}, {2, 1, 5}, {2, 3, 5}},
      {{2, 3, 4}, {2, 4, 5}, {3, 1}, {2, 3, 5}},
      {{4}, {4, 300}, {300}, {300}},
      {{2, 3, 4}, {4}, {2, 3}, {2, 3}},
      {{3, 4}, {4, 5}, {}, {3, 5}},
      // A per-row bias keeps the batch: packed B shared by both entries.
      {{2, 30, 40}, {40, 50}, {30, 50}, {2, 30, 50}},
      // A transformer's tokens (batch folded into 196 rows), features
      // fewer than rows and then more: the host shares split rows, then
      // columns.
      {{2, 98, 40}, {40, 130}, {130}, {2, 98, 130}},
      {{1, 20, 40}, {40, 300}, {300}, {1, 20, 300}},
  };
  unsigned seed = 500;
  for (const Case &c : cases) {
    om::OpDef op;
    op.set_name("mm");
    op.set_type("fused_matmul");
    *op.add_input_desc() = desc(c.a);
    *op.add_input_desc() = desc(c.b);
    *op.add_input_desc() = desc(c.bias);
    *op.add_output_desc() = desc(c.y);
    (*op.mutable_attr())["activation"].set_s("relu");
    std::vector<float> a = random(count(c.a), seed++),
                       b = random(count(c.b), seed++),
                       bias = random(count(c.bias), seed++);
    // Reference: plain matmul through the kernel, then bias and relu by hand.
    om::OpDef plain = op;
    plain.set_type("matmul");
    plain.mutable_input_desc()->RemoveLast();
    plain.mutable_attr()->clear();
    std::vector<float> want(count(c.y));
    ASSERT_TRUE(runOp(plain, {a.data(), b.data()}, want.data(), 1).isOk());
    Shape bs = c.bias;
    bs.insert(bs.begin(), c.y.size() - bs.size(), 1);
    for (int64_t e = 0; e < count(c.y); ++e) {
      int64_t rest = e, off = 0, stride = 1;
      for (size_t i = c.y.size(); i-- > 0;) {
        off += (bs[i] == 1 ? 0 : rest % c.y[i]) * stride;
        rest /= c.y[i];
        stride *= bs[i];
      }
      want[e] = std::max(0.0f, want[e] + bias[off]);
    }
    forEachVariant(
        [&](const std::string &trace, uint32_t blocks, bool constantB) {
          SCOPED_TRACE("y rank " + std::to_string(c.y.size()) + " bias rank " +
                       std::to_string(c.bias.size()) + " " + trace);
          std::vector<float> got(want.size(), 12345.0f);
          ASSERT_TRUE(runOp(op, {a.data(), b.data(), bias.data()}, got.data(),
                            blocks, constantB)
                          .isOk());
          expectNearAbs(got, want);
        });
  }
}

TEST(MatMulKernel, RejectsMismatchedBatch) {
  om::OpDef op;
  op.set_name("mm");
  op.set_type("matmul");
  *op.add_input_desc() = desc({2, 3, 4});
  *op.add_input_desc() = desc({3, 4, 5});
  *op.add_output_desc() = desc({2, 3, 5});
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'mm' (matmul)"), std::string::npos);
}

} // namespace
