//===- AttentionTest.cpp - fused_attention against direct loops -----------===//
//
// Under each ISA the machine has: the baseline runs nn::gemm and libm's exp,
// AVX2 and AVX-512 the packed micro-kernels and vmath's softmax.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

struct Problem {
  Shape batch;
  int64_t sq, sk, dh, dv;
  bool kTransposed = false;
  float scale = 1.0f;
  Shape mask; // empty: no mask
};

Shape with(Shape dims, int64_t a, int64_t b) {
  dims.push_back(a);
  dims.push_back(b);
  return dims;
}

/// softmax(scale * Q K^T + mask) V by the definition, in double.
std::vector<double> reference(const Problem &p, const std::vector<float> &q,
                              const std::vector<float> &k,
                              const std::vector<float> &v,
                              const std::vector<float> &mask) {
  int64_t batch = count(p.batch);
  Shape scores = with(p.batch, p.sq, p.sk);
  // Mask strides over the scores' dims (0 where it broadcasts).
  Shape m(scores.size() - p.mask.size(), 1);
  m.insert(m.end(), p.mask.begin(), p.mask.end());
  std::vector<int64_t> stride(m.size(), 0);
  for (int64_t d = int64_t(m.size()) - 1, s = 1; d >= 0; --d) {
    stride[d] = m[d] == 1 ? 0 : s;
    s *= m[d];
  }
  std::vector<double> y(batch * p.sq * p.dv, 0.0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < p.sq; ++i) {
      std::vector<double> row(p.sk);
      for (int64_t j = 0; j < p.sk; ++j) {
        double dot = 0;
        for (int64_t d = 0; d < p.dh; ++d) {
          float kv = p.kTransposed ? k[(b * p.dh + d) * p.sk + j]
                                   : k[(b * p.sk + j) * p.dh + d];
          dot += double(q[(b * p.sq + i) * p.dh + d]) * kv;
        }
        row[j] = p.scale * dot;
        if (!mask.empty()) {
          int64_t off = i * stride[stride.size() - 2] + j * stride.back();
          for (int64_t d = int64_t(p.batch.size()) - 1, rest = b; d >= 0; --d) {
            off += (rest % p.batch[d]) * stride[d];
            rest /= p.batch[d];
          }
          row[j] += mask[off];
        }
      }
      double mx = *std::max_element(row.begin(), row.end()), sum = 0;
      for (double &r : row)
        sum += (r = std::exp(r - mx));
      for (int64_t j = 0; j < p.sk; ++j)
        for (int64_t d = 0; d < p.dv; ++d)
          y[(b * p.sq + i) * p.dv + d] +=
              row[j] / sum * v[(b * p.sk + j) * p.dv + d];
    }
  return y;
}

om::OpDef attentionOp(const Problem &p) {
  om::OpDef op;
  op.set_name("attn");
  op.set_type("fused_attention");
  *op.add_input_desc() = desc(with(p.batch, p.sq, p.dh));
  *op.add_input_desc() = desc(p.kTransposed ? with(p.batch, p.dh, p.sk)
                                            : with(p.batch, p.sk, p.dh));
  *op.add_input_desc() = desc(with(p.batch, p.sk, p.dv));
  if (!p.mask.empty())
    *op.add_input_desc() = desc(p.mask);
  *op.add_output_desc() = desc(with(p.batch, p.sq, p.dv));
  setFloat(op, "scale", p.scale);
  setInt(op, "k_transposed", p.kTransposed);
  return op;
}

TEST(AttentionKernel, MatchesDefinition) {
  const Problem problems[] = {
      {{4}, 16, 16, 16, 16},                           // the encoder's shape
      {{2, 3}, 5, 7, 4, 6, false, 0.5f, {5, 7}},       // mask shared by batches
      {{2, 3}, 5, 7, 4, 6, true, 0.25f, {2, 1, 1, 7}}, // K^T, per-batch key
                                                       // mask
      {{}, 3, 9, 5, 2, false, 2.0f, {1}},              // rank 2, scalar mask
      {{2}, 40, 1000, 8, 3, false, 0.35f, {2, 40, 1000}}, // several row blocks
      {{3}, 197, 197, 64, 64, false, 0.125f},             // ViT-B/16's head
      {{2}, 1, 33, 17, 17, true, 1.0f, {1, 33}},          // one query row
  };
  unsigned seed = 10;
  for (const Problem &p : problems) {
    om::OpDef op = attentionOp(p);
    std::vector<float> q = random(count(shapeOf(op.input_desc(0))), seed++),
                       k = random(count(shapeOf(op.input_desc(1))), seed++),
                       v = random(count(shapeOf(op.input_desc(2))), seed++),
                       mask = p.mask.empty()
                                  ? std::vector<float>{}
                                  : random(count(p.mask), seed++, -3, 0);
    std::vector<double> want = reference(p, q, k, v, mask);
    for (cpu::Isa isa : machineIsas()) {
      IsaScope scope(isa);
      for (uint32_t blocks : {1u, 3u, 7u}) {
        SCOPED_TRACE(scope.name() + " sq=" + std::to_string(p.sq) +
                     " blocks=" + std::to_string(blocks));
        std::vector<float> y(want.size(), 12345.0f);
        std::vector<const void *> in = {q.data(), k.data(), v.data()};
        if (!mask.empty())
          in.push_back(mask.data());
        ASSERT_TRUE(
            runBuffers(op, in, {y.data()}, blocks, {rt::Engine::kMix}).isOk());
        expectNearAbs(y, want, 1e-5);
      }
    }
  }
}

// A causal mask: -inf above the diagonal, as a decoder's attention has it.
TEST(AttentionKernel, CausalMaskUnderEachIsa) {
  Problem p{{2}, 37, 37, 16, 8, false, 0.25f, {37, 37}};
  om::OpDef op = attentionOp(p);
  std::vector<float> q = random(2 * 37 * 16, 1), k = random(2 * 37 * 16, 2),
                     v = random(2 * 37 * 8, 3), mask(37 * 37, 0.0f);
  for (int i = 0; i < 37; ++i)
    for (int j = i + 1; j < 37; ++j)
      mask[i * 37 + j] = -INFINITY;
  std::vector<double> want = reference(p, q, k, v, mask);
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    SCOPED_TRACE(scope.name());
    std::vector<float> y(want.size(), 12345.0f);
    ASSERT_TRUE(runBuffers(op, {q.data(), k.data(), v.data(), mask.data()},
                           {y.data()}, 3, {rt::Engine::kMix})
                    .isOk());
    expectNearAbs(y, want, 1e-5);
  }
}

// y_perm [1, 0, 2] writes Y [B, Sq, Dv] as [Sq, B, Dv] (a head merge).
TEST(AttentionKernel, WritesThroughYPerm) {
  Problem p{{4}, 5, 6, 3, 2};
  om::OpDef op = attentionOp(p);
  *op.mutable_output_desc(0) = desc({5, 4, 2});
  setInts(op, "y_perm", {1, 0, 2});
  std::vector<float> q = random(4 * 5 * 3, 1), k = random(4 * 6 * 3, 2),
                     v = random(4 * 6 * 2, 3);
  std::vector<double> y = reference(p, q, k, v, {});
  std::vector<double> want(y.size());
  for (int b = 0; b < 4; ++b)
    for (int s = 0; s < 5; ++s)
      for (int d = 0; d < 2; ++d)
        want[(s * 4 + b) * 2 + d] = y[(b * 5 + s) * 2 + d];
  for (uint32_t blocks : {1u, 3u}) {
    std::vector<float> got(want.size(), 12345.0f);
    ASSERT_TRUE(runBuffers(op, {q.data(), k.data(), v.data()}, {got.data()},
                           blocks, {rt::Engine::kMix})
                    .isOk());
    expectNearAbs(got, want, 1e-5);
  }
  // The same bytes as [Sq, B * Dv] (the reshape merging the heads).
  *op.mutable_output_desc(0) = desc({5, 8});
  std::vector<float> merged(want.size(), 12345.0f);
  ASSERT_TRUE(runBuffers(op, {q.data(), k.data(), v.data()}, {merged.data()}, 3,
                         {rt::Engine::kMix})
                  .isOk());
  expectNearAbs(merged, want, 1e-5);
  *op.mutable_output_desc(0) = desc({5, 9});
  KernelPlan wrongSize;
  EXPECT_FALSE(planKernel(op, &wrongSize).isOk());
  *op.mutable_output_desc(0) = desc({5, 8});
  setInts(op, "y_perm", {1, 2, 0}); // appends: now [1, 0, 2, 1, 2, 0]
  KernelPlan plan;
  EXPECT_FALSE(planKernel(op, &plan).isOk());
}

// Cost: the products and the softmax; bytes: Q, K, V and Y once, no scores.
TEST(AttentionKernel, PlanHasNoScoreTraffic) {
  Problem p{{4}, 16, 16, 16, 16};
  KernelPlan plan;
  ASSERT_TRUE(planKernel(attentionOp(p), &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kMix);
  EXPECT_DOUBLE_EQ(plan.cost.bytes, 4.0 * 4 * 4 * 16 * 16);
  EXPECT_DOUBLE_EQ(plan.cost.flops, 4.0 * 16 * 16 * (2 * 32 + 5));
}

TEST(AttentionKernel, RejectsMismatchedShapes) {
  Problem p{{2}, 4, 5, 3, 3};
  om::OpDef op = attentionOp(p);
  *op.mutable_input_desc(2) = desc({2, 6, 3}); // V has 6 rows for 5 keys
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'attn' (fused_attention)"),
            std::string::npos);
  EXPECT_NE(st.message().find("key count"), std::string::npos);

  op = attentionOp(Problem{{2}, 4, 5, 3, 3, false, 1, {3, 5}});
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("mask does not broadcast"), std::string::npos);
}

} // namespace
