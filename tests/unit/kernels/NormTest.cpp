//===- NormTest.cpp - normalisation kernels against direct loops
//-----------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

rt::Status runOp(const om::OpDef &op, const std::vector<const float *> &in,
                 const std::vector<float *> &outs, uint32_t blockDim) {
  return runBuffers(op, {in.begin(), in.end()}, {outs.begin(), outs.end()},
                    blockDim, {rt::Engine::kAiv});
}

TEST(BatchNormKernel, MatchesFormula) {
  for (Shape x :
       {Shape{2, 3, 4, 5}, Shape{4, 6}, Shape{1, 5, 7}, Shape{2, 3, 2, 3, 2}}) {
    int64_t c = x[1], plane = count(x) / (x[0] * c);
    std::vector<float> in = random(count(x), 1), scale = random(c, 2),
                       bias = random(c, 3), mean = random(c, 4),
                       var = random(c, 5, 0.1f, 2.0f);
    for (bool setEps : {false, true}) {
      om::OpDef op;
      op.set_name("bn");
      op.set_type("batch_normalization");
      *op.add_input_desc() = desc(x);
      for (int i = 0; i < 4; ++i)
        *op.add_input_desc() = desc({c});
      *op.add_output_desc() = desc(x);
      float eps = 1e-5f;
      if (setEps) {
        eps = 0.01f;
        (*op.mutable_attr())["epsilon"].set_f(eps);
        (*op.mutable_attr())["momentum"].set_f(0.5f);
      }
      std::vector<double> want(in.size());
      for (size_t i = 0; i < in.size(); ++i) {
        int64_t ch = (i / plane) % c;
        want[i] =
            (in[i] - mean[ch]) / std::sqrt(double(var[ch]) + eps) * scale[ch] +
            bias[ch];
      }
      for (uint32_t blocks : {1u, 3u, 7u}) {
        std::vector<float> got(in.size(), 12345.0f);
        ASSERT_TRUE(runOp(op,
                          {in.data(), scale.data(), bias.data(), mean.data(),
                           var.data()},
                          {got.data()}, blocks)
                        .isOk());
        expectNearAbs(got, want);
      }
    }
  }
}

TEST(BatchNormKernel, RejectsTrainingAndBadParams) {
  om::OpDef op;
  op.set_name("bn");
  op.set_type("batch_normalization");
  *op.add_input_desc() = desc({1, 3, 2, 2});
  for (int i = 0; i < 4; ++i)
    *op.add_input_desc() = desc({3});
  *op.add_output_desc() = desc({1, 3, 2, 2});
  (*op.mutable_attr())["training_mode"].set_i(1);
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'bn' (batch_normalization)"),
            std::string::npos);
  EXPECT_NE(st.message().find("training_mode"), std::string::npos);

  op.mutable_attr()->erase("training_mode");
  *op.mutable_input_desc(4) = desc({4});
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("var"), std::string::npos);
}

TEST(InstanceNormKernel, MatchesFormula) {
  for (Shape x : {Shape{2, 3, 4, 5}, Shape{1, 4, 9}, Shape{2, 2, 3, 2, 3}}) {
    int64_t c = x[1], plane = count(x) / (x[0] * c);
    std::vector<float> in = random(count(x), 11, 2.0f, 5.0f),
                       scale = random(c, 12), bias = random(c, 13);
    om::OpDef op;
    op.set_name("in");
    op.set_type("instance_normalization");
    *op.add_input_desc() = desc(x);
    *op.add_input_desc() = desc({c});
    *op.add_input_desc() = desc({c});
    *op.add_output_desc() = desc(x);
    float eps = 1e-5f;
    std::vector<double> want(in.size());
    for (int64_t p = 0; p < x[0] * c; ++p) {
      double mean = 0, var = 0;
      for (int64_t i = 0; i < plane; ++i)
        mean += in[p * plane + i];
      mean /= plane;
      for (int64_t i = 0; i < plane; ++i)
        var += (in[p * plane + i] - mean) * (in[p * plane + i] - mean);
      var /= plane;
      for (int64_t i = 0; i < plane; ++i)
        want[p * plane + i] =
            (in[p * plane + i] - mean) / std::sqrt(var + eps) * scale[p % c] +
            bias[p % c];
    }
    for (uint32_t blocks : {1u, 3u, 7u}) {
      std::vector<float> got(in.size(), 12345.0f);
      ASSERT_TRUE(runOp(op, {in.data(), scale.data(), bias.data()},
                        {got.data()}, blocks)
                      .isOk());
      expectNearAbs(got, want);
    }
  }
}

TEST(LayerNormKernel, MatchesFormula) {
  struct Case {
    Shape x;
    int64_t axis;
    bool setAxis;
    Shape scale, bias; // bias {-1}: absent
    int outputs;
  };
  std::vector<Case> cases = {
      {{2, 3, 8}, -1, false, {8}, {8}, 1},
      {{2, 3, 8}, 1, true, {3, 8}, {3, 8}, 1},
      {{2, 3, 8}, -2, true, {8}, {1, 8}, 3},
      {{4, 5}, 0, true, {4, 5}, {-1}, 1},
      {{3, 2, 4}, 2, true, {4}, {-1}, 2},
      {{3, 2, 4, 2}, 1, true, {2, 1, 2}, {4, 1}, 3},
  };
  unsigned seed = 30;
  for (const Case &c : cases) {
    int64_t rank = c.x.size(), axis = c.axis < 0 ? c.axis + rank : c.axis;
    int64_t rows = 1, cols = 1;
    for (int64_t i = 0; i < rank; ++i)
      (i < axis ? rows : cols) *= c.x[i];
    Shape normalised(c.x.begin() + axis, c.x.end());
    bool hasBias = c.bias != Shape{-1};
    std::vector<float> in = random(count(c.x), seed++, -3.0f, 4.0f);
    std::vector<float> scale = random(count(c.scale), seed++);
    std::vector<float> bias =
        hasBias ? random(count(c.bias), seed++) : std::vector<float>{};
    om::OpDef op;
    op.set_name("ln");
    op.set_type("layer_normalization");
    *op.add_input_desc() = desc(c.x);
    *op.add_input_desc() = desc(c.scale);
    if (hasBias)
      *op.add_input_desc() = desc(c.bias);
    *op.add_output_desc() = desc(c.x);
    Shape statShape(c.x.begin(), c.x.begin() + axis);
    statShape.resize(rank, 1);
    for (int i = 1; i < c.outputs; ++i)
      *op.add_output_desc() = desc(statShape);
    if (c.setAxis)
      (*op.mutable_attr())["axis"].set_i(c.axis);
    (*op.mutable_attr())["epsilon"].set_f(1e-3f);
    // Broadcast a parameter element: numpy rules, right-aligned.
    auto at = [&](const std::vector<float> &v, const Shape &s, int64_t e) {
      Shape p(normalised.size() - s.size(), 1);
      p.insert(p.end(), s.begin(), s.end());
      int64_t off = 0, stride = 1;
      for (size_t i = p.size(); i-- > 0;) {
        int64_t coord = e % normalised[i];
        e /= normalised[i];
        off += (p[i] == 1 ? 0 : coord) * stride;
        stride *= p[i];
      }
      return v[off];
    };
    std::vector<double> want(in.size()), wantMean(rows), wantInv(rows);
    for (int64_t r = 0; r < rows; ++r) {
      double mean = 0, var = 0;
      for (int64_t j = 0; j < cols; ++j)
        mean += in[r * cols + j];
      mean /= cols;
      for (int64_t j = 0; j < cols; ++j)
        var += (in[r * cols + j] - mean) * (in[r * cols + j] - mean);
      var /= cols;
      double inv = 1.0 / std::sqrt(var + 1e-3);
      wantMean[r] = mean;
      wantInv[r] = inv;
      for (int64_t j = 0; j < cols; ++j)
        want[r * cols + j] =
            (in[r * cols + j] - mean) * inv * at(scale, c.scale, j) +
            (hasBias ? at(bias, c.bias, j) : 0.0);
    }
    for (uint32_t blocks : {1u, 3u, 7u}) {
      std::vector<float> got(in.size(), 12345.0f), gotMean(rows), gotInv(rows);
      std::vector<const float *> ins = {in.data(), scale.data()};
      if (hasBias)
        ins.push_back(bias.data());
      ASSERT_TRUE(
          runOp(op, ins, {got.data(), gotMean.data(), gotInv.data()}, blocks)
              .isOk());
      expectNearAbs(got, want);
      if (c.outputs > 1)
        expectNearAbs(gotMean, wantMean);
      if (c.outputs > 2)
        expectNearAbs(gotInv, wantInv);
    }
  }
}

TEST(LayerNormKernel, RejectsBadAxisAndScale) {
  om::OpDef op;
  op.set_name("ln");
  op.set_type("layer_normalization");
  *op.add_input_desc() = desc({2, 3});
  *op.add_input_desc() = desc({3});
  *op.add_output_desc() = desc({2, 3});
  (*op.mutable_attr())["axis"].set_i(2);
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'ln' (layer_normalization)"),
            std::string::npos);
  EXPECT_NE(st.message().find("axis"), std::string::npos);

  (*op.mutable_attr())["axis"].set_i(-1);
  *op.mutable_input_desc(1) = desc({4});
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Scale"), std::string::npos);
}

} // namespace
