//===- PoolTest.cpp - pooling kernels against direct loops ---------------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>
#include <limits>
#include <random>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

rt::Status runOp(const om::OpDef &op, const float *x,
                 const std::vector<void *> &outs, uint32_t blockDim) {
  return runBuffers(op, {x}, outs, blockDim, {rt::Engine::kAiv});
}

struct PoolCase {
  Shape x, kernel;
  Shape strides, pads, dilations;
  std::string autoPad;
  int64_t ceilMode = 0;
  int64_t countIncludePad = 0;
  int64_t storageOrder = 0;
};

/// The reference geometry in 3 dims with leading unit dims, from the spec.
struct Geo {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1},
          s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0},
          pe[3] = {0, 0, 0};
};

Geo geometry(const PoolCase &c) {
  size_t r = c.x.size() - 2;
  Geo g;
  for (size_t i = 0; i < r; ++i) {
    size_t j = 3 - r + i;
    g.in[j] = c.x[2 + i];
    g.k[j] = c.kernel[i];
    g.s[j] = c.strides.empty() ? 1 : c.strides[i];
    g.d[j] = c.dilations.empty() ? 1 : c.dilations[i];
    int64_t span = (g.k[j] - 1) * g.d[j] + 1;
    if (c.autoPad == "SAME_UPPER" || c.autoPad == "SAME_LOWER") {
      g.out[j] = (g.in[j] + g.s[j] - 1) / g.s[j];
      int64_t total =
          std::max<int64_t>(0, (g.out[j] - 1) * g.s[j] + span - g.in[j]);
      g.pb[j] = c.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pe[j] = total - g.pb[j];
    } else if (c.autoPad == "VALID") {
      g.out[j] = (g.in[j] - span) / g.s[j] + 1;
    } else {
      g.pb[j] = c.pads.empty() ? 0 : c.pads[i];
      g.pe[j] = c.pads.empty() ? 0 : c.pads[i + r];
      int64_t room = g.in[j] + g.pb[j] + g.pe[j] - span;
      g.out[j] =
          (c.ceilMode ? (room + g.s[j] - 1) / g.s[j] : room / g.s[j]) + 1;
    }
  }
  return g;
}

Shape outShape(const PoolCase &c, const Geo &g) {
  Shape y = {c.x[0], c.x[1]};
  for (size_t i = 0; i + 2 < c.x.size(); ++i)
    y.push_back(g.out[3 - (c.x.size() - 2) + i]);
  return y;
}

om::OpDef makeOp(const std::string &type, const PoolCase &c, const Shape &y) {
  om::OpDef op;
  op.set_name("pool0");
  op.set_type(type);
  *op.add_input_desc() = desc(c.x);
  *op.add_output_desc() = desc(y);
  if (type == "max_pool")
    *op.add_output_desc() = desc(y, om::DT_INT64);
  setInts(op, "kernel_shape", c.kernel);
  if (!c.strides.empty())
    setInts(op, "strides", c.strides);
  if (!c.pads.empty())
    setInts(op, "pads", c.pads);
  if (!c.dilations.empty())
    setInts(op, "dilations", c.dilations);
  if (!c.autoPad.empty())
    (*op.mutable_attr())["auto_pad"].set_s(c.autoPad);
  if (c.ceilMode)
    (*op.mutable_attr())["ceil_mode"].set_i(1);
  if (c.countIncludePad)
    (*op.mutable_attr())["count_include_pad"].set_i(1);
  if (c.storageOrder)
    (*op.mutable_attr())["storage_order"].set_i(1);
  return op;
}

/// Direct loops: every window position checked against the input and the
/// padded input.
void reference(const PoolCase &c, const Geo &g, bool isMax,
               const std::vector<float> &x, std::vector<float> *y,
               std::vector<int64_t> *idx) {
  int64_t planes = c.x[0] * c.x[1];
  int64_t inSz = g.in[0] * g.in[1] * g.in[2];
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
        for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
          double sum = 0;
          int64_t valid = 0, padded = 0, bestIdx = -1;
          float best = -std::numeric_limits<float>::infinity();
          for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
            for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
              for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
                int64_t i[3] = {o0 * g.s[0] - g.pb[0] + k0 * g.d[0],
                                o1 * g.s[1] - g.pb[1] + k1 * g.d[1],
                                o2 * g.s[2] - g.pb[2] + k2 * g.d[2]};
                bool inPadded = true, inInput = true;
                for (int d = 0; d < 3; ++d) {
                  inPadded =
                      inPadded && i[d] >= -g.pb[d] && i[d] < g.in[d] + g.pe[d];
                  inInput = inInput && i[d] >= 0 && i[d] < g.in[d];
                }
                padded += inPadded;
                if (!inInput)
                  continue;
                ++valid;
                float v =
                    x[p * inSz + (i[0] * g.in[1] + i[1]) * g.in[2] + i[2]];
                sum += v;
                if (bestIdx < 0 || v > best) {
                  best = v;
                  bestIdx =
                      c.storageOrder
                          ? i[0] + i[1] * g.in[0] + i[2] * g.in[0] * g.in[1]
                          : (i[0] * g.in[1] + i[1]) * g.in[2] + i[2];
                  bestIdx += p * inSz;
                }
              }
          if (isMax) {
            y->push_back(best);
            idx->push_back(bestIdx);
          } else {
            y->push_back(
                static_cast<float>(sum / (c.countIncludePad ? padded : valid)));
          }
        }
}

/// run(blocks) for case `index` under every ISA body (PoolRows*.cpp) and a
/// few block splits, the trace naming both.
template <class Run> void acrossIsasAndBlocks(int index, Run run) {
  for (cpu::Isa isa : machineIsas())
    for (uint32_t blocks : {1u, 3u, 7u}) {
      IsaScope scope(isa);
      SCOPED_TRACE("case " + std::to_string(index) + " blocks " +
                   std::to_string(blocks) + " " + scope.name());
      run(blocks);
    }
}

enum class PoolOutputs { kAverage, kMax, kMaxWithIndices };

/// Every case of `cases` (seeds from `seed`) against the direct loops under
/// every ISA body and block split: average_pool within 1e-4, max_pool's
/// values (and Indices) exactly.
void expectCasesMatch(const std::vector<PoolCase> &cases, unsigned seed,
                      PoolOutputs outputs) {
  const bool isMax = outputs != PoolOutputs::kAverage;
  const bool indices = outputs == PoolOutputs::kMaxWithIndices;
  int index = 0;
  for (const PoolCase &c : cases) {
    Geo g = geometry(c);
    Shape y = outShape(c, g);
    om::OpDef op = makeOp(isMax ? "max_pool" : "average_pool", c, y);
    if (isMax && !indices)
      op.mutable_output_desc()->RemoveLast();
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> want;
    std::vector<int64_t> wantIdx;
    reference(c, g, isMax, x, &want, &wantIdx);
    acrossIsasAndBlocks(index, [&](uint32_t blocks) {
      std::vector<float> got(want.size(), 12345.0f);
      std::vector<int64_t> gotIdx(want.size(), -7);
      std::vector<void *> outs = {got.data()};
      if (indices)
        outs.push_back(gotIdx.data());
      rt::Status st = runOp(op, x.data(), outs, blocks);
      ASSERT_TRUE(st.isOk()) << st.toString();
      for (size_t i = 0; i < want.size(); ++i) {
        if (!isMax) {
          ASSERT_NEAR(got[i], want[i], 1e-4) << "at " << i;
        } else {
          ASSERT_EQ(got[i], want[i]) << "at " << i;
        }
        if (indices) {
          ASSERT_EQ(gotIdx[i], wantIdx[i]) << "at " << i;
        }
      }
    });
    ++index;
  }
}

TEST(AveragePoolKernel, MatchesDirectLoops) {
  std::vector<PoolCase> cases = {
      {{1, 2, 5, 5}, {3, 3}, {}, {}, {}, ""},
      {{2, 3, 6, 5}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 0},
      {{2, 3, 6, 5}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 1},
      {{1, 2, 7, 8}, {3, 2}, {2, 2}, {0, 1, 1, 0}, {}, "", 0, 1},
      {{1, 1, 4, 4}, {3, 3}, {2, 2}, {}, {}, "", 1, 0},
      {{1, 2, 6, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, "", 1, 1},
      {{1, 2, 5, 5}, {3, 3}, {2, 2}, {}, {}, "SAME_UPPER", 0, 0},
      {{1, 2, 5, 5}, {2, 2}, {}, {}, {}, "SAME_LOWER", 0, 1},
      {{1, 2, 7, 6}, {3, 2}, {2, 1}, {}, {}, "VALID"},
      {{2, 3, 9}, {3}, {2}, {1, 1}, {}, "", 0, 0},
      {{1, 2, 4, 5, 6}, {2, 3, 2}, {2, 1, 2}, {1, 0, 1, 0, 1, 1}, {}, "", 0, 0},
      {{1, 2, 4, 5, 6}, {2, 3, 2}, {2, 1, 2}, {1, 0, 1, 0, 1, 1}, {}, "", 0, 1},
      {{3, 5, 8, 8}, {2, 2}, {2, 2}, {}, {}, ""},
      // Rows wider than a vector (Inception's 35x35 3x3 stride-1 pools).
      {{1, 3, 35, 35}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 0},
      {{1, 3, 35, 35}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 1},
      {{1, 2, 9, 40}, {5, 5}, {2, 2}, {2, 2, 2, 2}, {}, "", 0, 0},
      // Outputs the input's size at unit strides: PoolPlane's sweep, with
      // windows taller or wider than the map and uneven pads.
      {{2, 3, 17, 17}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 1},
      {{1, 2, 9, 40}, {5, 5}, {}, {2, 2, 2, 2}, {}, "", 0, 0},
      {{1, 2, 6, 7}, {2, 4}, {}, {0, 2, 1, 1}, {}, "", 0, 0},
      {{1, 2, 6, 7}, {2, 4}, {}, {1, 1, 0, 2}, {}, "", 0, 1},
      {{1, 2, 1, 7}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 0},
      {{1, 2, 8, 1}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 1},
      {{1, 2, 3, 6, 7}, {1, 3, 3}, {}, {0, 1, 1, 0, 1, 1}, {}, "", 0, 1},
  };
  expectCasesMatch(cases, 1, PoolOutputs::kAverage);
}

TEST(MaxPoolKernel, MatchesDirectLoopsWithIndices) {
  std::vector<PoolCase> cases = {
      {{1, 2, 5, 5}, {3, 3}, {}, {}, {}, ""},
      {{2, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, ""},
      {{1, 2, 8, 8}, {2, 2}, {1, 1}, {}, {2, 2}, ""},
      {{1, 2, 9, 9}, {3, 3}, {2, 2}, {1, 0, 1, 0}, {2, 1}, "", 1},
      {{1, 1, 4, 4}, {3, 3}, {2, 2}, {}, {}, "", 1},
      {{2, 2, 5, 4}, {2, 3}, {2, 1}, {1, 1, 0, 1}, {}, "", 0, 0, 1},
      {{1, 2, 4, 5, 3},
       {2, 2, 2},
       {1, 2, 1},
       {0, 1, 0, 1, 0, 1},
       {},
       "",
       0,
       0,
       1},
      {{1, 2, 4, 5, 3}, {3, 2, 2}, {2, 1, 1}, {}, {1, 2, 1}, "", 1},
      {{2, 3, 11}, {3}, {2}, {1, 1}, {2}, ""},
      {{1, 2, 5, 5}, {3, 3}, {2, 2}, {}, {}, "SAME_UPPER"},
      {{1, 2, 6, 6}, {2, 2}, {}, {}, {}, "SAME_LOWER"},
      {{1, 2, 7, 7}, {3, 3}, {2, 2}, {}, {}, "VALID"},
      {{1, 3, 37, 37}, {3, 3}, {2, 2}, {}, {}, ""},
      {{1, 2, 20, 40}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {}, ""},
      {{1, 2, 12, 50}, {3, 3}, {3, 3}, {1, 1, 1, 1}, {}, "", 1},
  };
  expectCasesMatch(cases, 100, PoolOutputs::kMaxWithIndices);
}

template <typename T> void checkMaxPoolOfType(om::DataType dtype) {
  PoolCase c{{2, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, ""};
  Geo g = geometry(c);
  Shape y = outShape(c, g);
  om::OpDef op = makeOp("max_pool", c, y);
  op.mutable_input_desc(0)->set_dtype(dtype);
  op.mutable_output_desc(0)->set_dtype(dtype);
  std::mt19937 gen(5);
  std::vector<T> x(count(c.x));
  std::vector<float> xf(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<T>(static_cast<int>(gen() % 200) -
                          (std::is_signed_v<T> ? 100 : 0));
    xf[i] = static_cast<float>(x[i]);
  }
  std::vector<float> want;
  std::vector<int64_t> wantIdx;
  reference(c, g, true, xf, &want, &wantIdx);
  for (uint32_t blocks : {1u, 4u}) {
    std::vector<T> got(want.size());
    std::vector<int64_t> gotIdx(want.size());
    ASSERT_TRUE(runOp(op, reinterpret_cast<const float *>(x.data()),
                      {got.data(), gotIdx.data()}, blocks)
                    .isOk());
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(static_cast<float>(got[i]), want[i]) << "at " << i;
      ASSERT_EQ(gotIdx[i], wantIdx[i]) << "at " << i;
    }
  }
}

TEST(MaxPoolKernel, OtherElementTypes) {
  checkMaxPoolOfType<uint8_t>(om::DT_UINT8);
  checkMaxPoolOfType<int8_t>(om::DT_INT8);
  checkMaxPoolOfType<double>(om::DT_DOUBLE);
}

TEST(MaxPoolKernel, WithoutIndicesOutput) {
  PoolCase c{{1, 1, 4, 4}, {2, 2}, {2, 2}, {}, {}, ""};
  Geo g = geometry(c);
  om::OpDef op = makeOp("max_pool", c, outShape(c, g));
  op.mutable_output_desc()->RemoveLast();
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i)
    x[i] = static_cast<float>(i);
  std::vector<float> got(4);
  ASSERT_TRUE(runOp(op, x.data(), {got.data()}, 2).isOk());
  EXPECT_EQ(got, (std::vector<float>{5, 7, 13, 15}));
}

TEST(MaxPoolKernel, SameSizePoolsWithoutIndices) {
  // PoolPlane's sweep (no Indices output): YOLO's SPP pools and smaller.
  std::vector<PoolCase> cases = {
      {{1, 3, 20, 20}, {5, 5}, {}, {2, 2, 2, 2}, {}, ""},
      {{2, 2, 13, 13}, {9, 9}, {}, {4, 4, 4, 4}, {}, ""},
      {{1, 2, 6, 7}, {2, 4}, {}, {0, 2, 1, 1}, {}, ""},
      {{1, 2, 1, 5}, {3, 3}, {}, {1, 1, 1, 1}, {}, ""},
  };
  expectCasesMatch(cases, 300, PoolOutputs::kMax);
}

TEST(MaxPoolKernel, RowsWithoutIndices) {
  // The row sweep's one-pass 3x3 windows: Inception's 3x3 stride-2 pools
  // (no pad, rows wider than a vector), ResNet's (pad 1), stride 1 with an
  // output smaller than the input, and a 4-wide window (the general pass).
  std::vector<PoolCase> cases = {
      {{1, 3, 35, 37}, {3, 3}, {2, 2}, {}, {}, ""},
      {{1, 2, 40, 41}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, ""},
      {{1, 2, 9, 40}, {3, 3}, {}, {}, {}, ""},
      {{1, 2, 9, 21}, {3, 4}, {2, 2}, {1, 0, 1, 2}, {}, ""},
  };
  expectCasesMatch(cases, 400, PoolOutputs::kMax);
  expectCasesMatch(cases, 500, PoolOutputs::kAverage);
}

TEST(PoolKernels, BlocksOfInterleavedPlanes) {
  // 2-D float pools run 16 planes at a time (PoolBlock): more planes than a
  // block, a short last block, blocks across images, windows four outputs
  // at a time and the edge ones alone, and 1-D maps (rows of one).
  std::vector<PoolCase> cases = {
      {{1, 20, 17, 17}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 0},
      {{1, 20, 17, 17}, {3, 3}, {}, {1, 1, 1, 1}, {}, "", 0, 1},
      {{1, 40, 35, 35}, {3, 3}, {2, 2}, {}, {}, ""},
      {{2, 9, 11, 13}, {3, 3}, {2, 2}, {}, {}, "", 1, 0},
      {{1, 33, 8, 8}, {2, 2}, {2, 2}, {}, {}, ""},
      {{1, 17, 12, 12}, {3, 3}, {}, {2, 2, 2, 2}, {2, 2}, ""},
      {{1, 18, 9, 21}, {3, 4}, {2, 1}, {1, 0, 1, 2}, {}, "", 0, 1},
      {{2, 20, 30}, {3}, {2}, {1, 1}, {}, "", 0, 0},
  };
  expectCasesMatch(cases, 600, PoolOutputs::kMax);
  expectCasesMatch(cases, 700, PoolOutputs::kAverage);
}

TEST(GlobalPoolKernels, AverageAndMax) {
  for (Shape x : {Shape{2, 3, 4, 5}, Shape{1, 4, 7}, Shape{2, 2, 3, 2, 4}}) {
    std::vector<float> in = random(count(x), 7);
    Shape y = {x[0], x[1]};
    y.resize(x.size(), 1);
    int64_t planes = x[0] * x[1], sz = count(x) / planes;
    for (std::string type : {"global_average_pool", "global_max_pool"}) {
      om::OpDef op;
      op.set_name("gp");
      op.set_type(type);
      *op.add_input_desc() = desc(x);
      *op.add_output_desc() = desc(y);
      for (uint32_t blocks : {1u, 3u, 7u}) {
        std::vector<float> got(planes, 12345.0f);
        ASSERT_TRUE(runOp(op, in.data(), {got.data()}, blocks).isOk());
        for (int64_t p = 0; p < planes; ++p) {
          double sum = 0;
          float mx = -std::numeric_limits<float>::infinity();
          for (int64_t i = 0; i < sz; ++i) {
            sum += in[p * sz + i];
            mx = std::max(mx, in[p * sz + i]);
          }
          float want =
              type == "global_max_pool" ? mx : static_cast<float>(sum / sz);
          ASSERT_NEAR(got[p], want, 1e-5) << type << " plane " << p;
        }
      }
    }
  }
}

TEST(MaxPoolKernel, PlanSplitsOverPlanes) {
  PoolCase c{{1, 64, 112, 112}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, ""};
  om::OpDef op = makeOp("max_pool", c, {1, 64, 56, 56});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAiv);
  EXPECT_GE(plan.maxBlocks, 32u);
  EXPECT_DOUBLE_EQ(plan.cost.flops, 64.0 * 56 * 56 * 9);
  EXPECT_DOUBLE_EQ(plan.cost.bytes,
                   4.0 * 64 * (112 * 112 + 56 * 56) + 8.0 * 64 * 56 * 56);
}

TEST(PoolKernels, Errors) {
  PoolCase c{{1, 2, 5, 5}, {3, 3}, {}, {}, {}, ""};
  om::OpDef op = makeOp("average_pool", c, {1, 2, 3, 3});
  op.mutable_attr()->erase("kernel_shape");
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'pool0' (average_pool)"),
            std::string::npos);
  EXPECT_NE(st.message().find("kernel_shape"), std::string::npos);

  op = makeOp("max_pool", c, {1, 2, 3, 3});
  op.mutable_input_desc(0)->set_dtype(om::DT_INT32);
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("int32"), std::string::npos);

  op = makeOp("max_pool", c, {1, 2, 3, 3});
  op.mutable_output_desc(1)->set_dtype(om::DT_INT32);
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Indices"), std::string::npos);
}

} // namespace
