//===- ElementwiseTest.cpp - unary, binary, variadic, where, cast
//------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

std::vector<float> iota(int n, float start = 0, float step = 1) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = start + step * i;
  return v;
}

std::vector<float> runUnary(const std::string &type,
                            const std::vector<float> &x, uint32_t blocks,
                            OpBuilder b = OpBuilder("")) {
  om::OpDef op = b.op();
  op.set_type(type);
  op.set_name("u");
  int64_t n = static_cast<int64_t>(x.size());
  *op.add_input_desc() = makeDesc(om::DT_FLOAT, {n});
  *op.add_output_desc() = makeDesc(om::DT_FLOAT, {n});
  return runOp(op, {tensor<float>({n}, x)}, blocks)[0].values<float>();
}

} // namespace

TEST(ElementwiseTest, UnaryOpsMatchTheirDefinitions) {
  std::vector<float> x = {-2.5f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 2.5f, 4.0f};
  struct Case {
    const char *type;
    double (*ref)(double);
  } cases[] = {
      {"abs", [](double v) { return std::fabs(v); }},
      {"ceil", [](double v) { return std::ceil(v); }},
      {"cos", [](double v) { return std::cos(v); }},
      {"elu", [](double v) { return v > 0 ? v : std::exp(v) - 1; }},
      {"erf", [](double v) { return std::erf(v); }},
      {"exp", [](double v) { return std::exp(v); }},
      {"floor", [](double v) { return std::floor(v); }},
      {"hard_sigmoid",
       [](double v) { return std::clamp(0.2 * v + 0.5, 0.0, 1.0); }},
      {"hard_swish",
       [](double v) { return v * std::clamp(v / 6 + 0.5, 0.0, 1.0); }},
      {"identity", [](double v) { return v; }},
      {"leaky_relu", [](double v) { return v < 0 ? 0.01 * v : v; }},
      {"neg", [](double v) { return -v; }},
      {"relu", [](double v) { return v > 0 ? v : 0.0; }},
      // Halves to even: -2.5 -> -2, -0.5 -> -0, 0.5 -> 0, 2.5 -> 2.
      {"round", [](double v) { return std::nearbyint(v); }},
      {"selu",
       [](double v) {
         return v > 0 ? 1.0507009873554805 * v
                      : 1.0507009873554805 * 1.6732632423543772 *
                            (std::exp(v) - 1);
       }},
      {"sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"sign", [](double v) { return double((v > 0) - (v < 0)); }},
      {"sin", [](double v) { return std::sin(v); }},
      {"softplus", [](double v) { return std::log(1 + std::exp(v)); }},
      {"softsign", [](double v) { return v / (1 + std::fabs(v)); }},
      {"tanh", [](double v) { return std::tanh(v); }},
  };
  for (const Case &c : cases) {
    std::vector<float> expected;
    for (float v : x)
      expected.push_back(static_cast<float>(c.ref(v)));
    for (uint32_t blocks : kBlockDims) {
      SCOPED_TRACE(std::string(c.type) + " blocks " + std::to_string(blocks));
      expectNear(runUnary(c.type, x, blocks), expected, 1e-5);
    }
  }
  std::vector<float> pos = {0.25f, 1.0f, 4.0f, 9.0f};
  expectNear(runUnary("sqrt", pos, 3), {0.5f, 1.0f, 2.0f, 3.0f});
  expectNear(runUnary("log", pos, 3),
             {std::log(0.25f), 0.0f, std::log(4.0f), std::log(9.0f)});
  expectNear(runUnary("reciprocal", pos, 3), {4.0f, 1.0f, 0.25f, 1.0f / 9});
}

TEST(ElementwiseTest, UnaryAttributesOverrideDefaults) {
  std::vector<float> x = {-2.0f, -1.0f, 0.0f, 1.0f, 2.0f};
  expectNear(runUnary("leaky_relu", x, 1, OpBuilder("").attr("alpha", 0.1f)),
             {-0.2f, -0.1f, 0.0f, 1.0f, 2.0f});
  expectNear(runUnary("elu", x, 1, OpBuilder("").attr("alpha", 2.0f)),
             {2 * (std::exp(-2.0f) - 1), 2 * (std::exp(-1.0f) - 1), 0, 1, 2});
  expectNear(runUnary("hard_sigmoid", x, 1,
                      OpBuilder("").attr("alpha", 0.5f).attr("beta", 0.6f)),
             {0.0f, 0.1f, 0.6f, 1.0f, 1.0f});
}

TEST(ElementwiseTest, LargeUnaryCoversEveryBlock) {
  std::vector<float> x = iota(10007, -5000.0f);
  std::vector<float> expected;
  for (float v : x)
    expected.push_back(v > 0 ? v : 0);
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runUnary("relu", x, blocks), expected);
  KernelPlan plan;
  om::OpDef op = OpBuilder("relu")
                     .input(om::DT_FLOAT, {10007})
                     .output(om::DT_FLOAT, {10007});
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAiv);
  EXPECT_EQ(plan.maxBlocks, 3u);
  EXPECT_EQ(plan.cost.bytes, 2.0 * 10007 * 4);
  EXPECT_EQ(plan.cost.flops, 10007.0);
}

TEST(ElementwiseTest, ClipWithAndWithoutBounds) {
  auto x = tensor<float>({5}, {-3, -1, 0, 1, 3});
  auto lo = tensor<float>({}, {-1.5f});
  auto hi = tensor<float>({}, {2.0f});
  om::OpDef both =
      OpBuilder("clip").input(x).input(lo).input(hi).output(om::DT_FLOAT, {5});
  om::OpDef onlyMax = OpBuilder("clip").input(x).absentInput().input(hi).output(
      om::DT_FLOAT, {5});
  om::OpDef none = OpBuilder("clip").input(x).output(om::DT_FLOAT, {5});
  for (uint32_t blocks : kBlockDims) {
    for (bool constants : {false, true}) {
      EXPECT_EQ(runOp(both, {x, lo, hi}, blocks, constants)[0].values<float>(),
                (std::vector<float>{-1.5f, -1, 0, 1, 2}));
      EXPECT_EQ(runOp(onlyMax, {x, HostTensor(), hi}, blocks, constants)[0]
                    .values<float>(),
                (std::vector<float>{-3, -1, 0, 1, 2}));
    }
    EXPECT_EQ(runOp(none, {x}, blocks)[0].values<float>(),
              (std::vector<float>{-3, -1, 0, 1, 3}));
  }
  // int8 with only a min.
  auto xi = tensor<int8_t>({4}, {-128, -5, 5, 127});
  auto loi = tensor<int8_t>({}, {-10});
  om::OpDef i8 =
      OpBuilder("clip").input(xi).input(loi).output(om::DT_INT8, {4});
  EXPECT_EQ(runOp(i8, {xi, loi}, 3)[0].values<int8_t>(),
            (std::vector<int8_t>{-10, -5, 5, 127}));
}

TEST(ElementwiseTest, NotOnBool) {
  auto x = boolTensor({4}, {1, 0, 0, 1});
  om::OpDef op = OpBuilder("not").input(x).output(om::DT_BOOL, {4});
  EXPECT_EQ(runOp(op, {x}, 3)[0].bytes, (std::vector<uint8_t>{0, 1, 1, 0}));
}

TEST(ElementwiseTest, BinaryBroadcastsBothWays) {
  // [2,1,3] + [4,1] -> [2,4,3]
  auto a = tensor<float>({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  auto b = tensor<float>({4, 1}, {10, 20, 30, 40});
  om::OpDef op =
      OpBuilder("add").input(a).input(b).output(om::DT_FLOAT, {2, 4, 3});
  std::vector<float> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k)
        expected.push_back((i * 3 + k + 1) + 10.0f * (j + 1));
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {a, b}, blocks)[0].values<float>(), expected);
}

TEST(ElementwiseTest, BroadcastMatchesNaiveIndexing) {
  // Pairs of shapes that broadcast, including unit dims on both sides and
  // ranks that differ; checked against per-element index arithmetic.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
      cases = {{{2, 3, 4}, {2, 1, 4}},    {{2, 1, 4}, {1, 3, 1}},
               {{5, 1, 1, 7}, {3, 1, 7}}, {{1}, {4, 1, 3}},
               {{6, 1}, {1, 1, 5}},       {{2, 3, 1, 5}, {3, 4, 1}},
               {{1, 1}, {1, 1}},          {{129, 65}, {65}},
               {{3, 1, 40}, {3, 50, 1}}};
  for (const auto &[sa, sb] : cases) {
    size_t rank = std::max(sa.size(), sb.size());
    std::vector<int64_t> pa(rank - sa.size(), 1), pb(rank - sb.size(), 1),
        out(rank);
    pa.insert(pa.end(), sa.begin(), sa.end());
    pb.insert(pb.end(), sb.begin(), sb.end());
    for (size_t d = 0; d < rank; ++d)
      out[d] = std::max(pa[d], pb[d]);
    int64_t na = 1, nb = 1, no = 1;
    for (size_t d = 0; d < rank; ++d) {
      na *= pa[d];
      nb *= pb[d];
      no *= out[d];
    }
    std::vector<float> a(na), b(nb), expected(no);
    for (int64_t i = 0; i < na; ++i)
      a[i] = static_cast<float>(i);
    for (int64_t i = 0; i < nb; ++i)
      b[i] = static_cast<float>(1000 * i);
    for (int64_t o = 0; o < no; ++o) {
      int64_t rest = o, ia = 0, ib = 0, sa2 = 1, sb2 = 1;
      for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
        int64_t idx = rest % out[d];
        rest /= out[d];
        ia += (pa[d] == 1 ? 0 : idx) * sa2;
        ib += (pb[d] == 1 ? 0 : idx) * sb2;
        sa2 *= pa[d];
        sb2 *= pb[d];
      }
      expected[o] = a[ia] + b[ib];
    }
    auto ta = tensor<float>(sa, a), tb = tensor<float>(sb, b);
    om::OpDef op =
        OpBuilder("add").input(ta).input(tb).output(om::DT_FLOAT, out);
    for (uint32_t blocks : kBlockDims)
      EXPECT_EQ(runOp(op, {ta, tb}, blocks)[0].values<float>(), expected)
          << "blocks " << blocks << " case " << sa.size() << "-d + "
          << sb.size() << "-d";
  }
}

TEST(ElementwiseTest, BinaryOpsScalarAndSameShape) {
  auto a = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto s = tensor<float>({}, {2});
  auto c = tensor<float>({2, 3}, {6, 5, 4, 3, 2, 1});
  auto run = [&](const char *type, const HostTensor &x, const HostTensor &y,
                 uint32_t blocks) {
    om::OpDef op =
        OpBuilder(type).input(x).input(y).output(om::DT_FLOAT, {2, 3});
    return runOp(op, {x, y}, blocks)[0].values<float>();
  };
  for (uint32_t blocks : kBlockDims) {
    EXPECT_EQ(run("sub", a, s, blocks),
              (std::vector<float>{-1, 0, 1, 2, 3, 4}));
    EXPECT_EQ(run("sub", s, a, blocks),
              (std::vector<float>{1, 0, -1, -2, -3, -4}));
    EXPECT_EQ(run("mul", a, c, blocks),
              (std::vector<float>{6, 10, 12, 12, 10, 6}));
    EXPECT_EQ(run("div", a, s, blocks),
              (std::vector<float>{0.5f, 1, 1.5f, 2, 2.5f, 3}));
    EXPECT_EQ(run("pow", a, s, blocks),
              (std::vector<float>{1, 4, 9, 16, 25, 36}));
  }
}

TEST(ElementwiseTest, PReluSlopeBroadcastsPerChannel) {
  auto x = tensor<float>({1, 2, 2}, {-1, 2, -3, 4});
  auto slope = tensor<float>({2, 1}, {0.5f, 0.25f});
  om::OpDef op =
      OpBuilder("prelu").input(x).input(slope).output(om::DT_FLOAT, {1, 2, 2});
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {x, slope}, blocks)[0].values<float>(),
              (std::vector<float>{-0.5f, 2, -0.75f, 4}));
}

TEST(ElementwiseTest, IntegerArithmetic) {
  auto a = tensor<int64_t>({4}, {7, -7, 9, 100});
  auto b = tensor<int64_t>({4}, {2, 2, -4, 0});
  auto run = [&](const char *type) {
    om::OpDef op = OpBuilder(type).input(a).input(b).output(om::DT_INT64, {4});
    return runOp(op, {a, b}, 3)[0].values<int64_t>();
  };
  EXPECT_EQ(run("add"), (std::vector<int64_t>{9, -5, 5, 100}));
  EXPECT_EQ(run("mul"), (std::vector<int64_t>{14, -14, -36, 0}));
  // Truncating division; a zero divisor gives 0 rather than a trap.
  EXPECT_EQ(run("div"), (std::vector<int64_t>{3, -3, -2, 0}));
  auto x = tensor<int32_t>({3}, {2, 3, 4});
  auto y = tensor<int32_t>({3}, {3, 2, 0});
  om::OpDef pw = OpBuilder("pow").input(x).input(y).output(om::DT_INT32, {3});
  EXPECT_EQ(runOp(pw, {x, y}, 1)[0].values<int32_t>(),
            (std::vector<int32_t>{8, 9, 1}));
}

TEST(ElementwiseTest, PowWithMixedExponentType) {
  auto x = tensor<float>({3}, {1, 2, 3});
  auto y = tensor<int64_t>({3}, {4, 5, 6});
  om::OpDef op = OpBuilder("pow").input(x).input(y).output(om::DT_FLOAT, {3});
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {x, y}, blocks)[0].values<float>(),
              (std::vector<float>{1, 32, 729}));
}

TEST(ElementwiseTest, ComparisonsGiveBool) {
  auto a = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto b = tensor<float>({2}, {2, 3});
  auto run = [&](const char *type) {
    om::OpDef op =
        OpBuilder(type).input(a).input(b).output(om::DT_BOOL, {2, 2});
    return runOp(op, {a, b}, 3)[0].bytes;
  };
  EXPECT_EQ(run("equal"), (std::vector<uint8_t>{0, 0, 0, 0}));
  EXPECT_EQ(run("greater"), (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(run("less"), (std::vector<uint8_t>{1, 1, 0, 0}));
  auto ia = tensor<int32_t>({3}, {1, 5, 7});
  auto ib = tensor<int32_t>({}, {5});
  om::OpDef eq =
      OpBuilder("equal").input(ia).input(ib).output(om::DT_BOOL, {3});
  EXPECT_EQ(runOp(eq, {ia, ib}, 1)[0].bytes, (std::vector<uint8_t>{0, 1, 0}));
  auto ba = boolTensor({2}, {1, 0});
  auto bb = boolTensor({2}, {1, 1});
  om::OpDef beq =
      OpBuilder("equal").input(ba).input(bb).output(om::DT_BOOL, {2});
  EXPECT_EQ(runOp(beq, {ba, bb}, 1)[0].bytes, (std::vector<uint8_t>{1, 0}));
}

TEST(ElementwiseTest, VariadicBroadcastingOps) {
  auto a = tensor<float>({3}, {3, 2, 1});
  auto b = tensor<float>({3}, {1, 4, 4});
  auto c = tensor<float>({2, 1}, {2, 6});
  auto run = [&](const char *type, std::vector<HostTensor> in) {
    OpBuilder b(type);
    for (auto &t : in)
      b.input(t);
    om::OpDef op = b.output(om::DT_FLOAT, {2, 3});
    std::vector<std::vector<float>> results;
    for (uint32_t blocks : kBlockDims)
      results.push_back(runOp(op, in, blocks)[0].values<float>());
    for (auto &r : results)
      EXPECT_EQ(r, results[0]) << type;
    return results[0];
  };
  EXPECT_EQ(run("max", {a, b, c}), (std::vector<float>{3, 4, 4, 6, 6, 6}));
  EXPECT_EQ(run("min", {a, b, c}), (std::vector<float>{1, 2, 1, 1, 2, 1}));
  EXPECT_EQ(run("sum", {a, b, c}), (std::vector<float>{6, 8, 7, 10, 12, 11}));
  expectNear(run("mean", {a, b, c}),
             {2, 8.0f / 3, 7.0f / 3, 10.0f / 3, 4, 11.0f / 3});
  EXPECT_EQ(run("sum", {c}), (std::vector<float>{2, 2, 2, 6, 6, 6}));
  // Integer max of unusual dtypes.
  auto u = tensor<uint8_t>({3}, {1, 200, 3});
  auto v = tensor<uint8_t>({3}, {100, 2, 255});
  om::OpDef op = OpBuilder("max").input(u).input(v).output(om::DT_UINT8, {3});
  EXPECT_EQ(runOp(op, {u, v}, 1)[0].values<uint8_t>(),
            (std::vector<uint8_t>{100, 200, 255}));
}

TEST(ElementwiseTest, WhereBroadcastsThreeWays) {
  auto cond = boolTensor({2, 1}, {1, 0});
  auto x = tensor<int64_t>({3}, {1, 2, 3});
  auto y = tensor<int64_t>({}, {-1});
  om::OpDef op = OpBuilder("where").input(cond).input(x).input(y).output(
      om::DT_INT64, {2, 3});
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {cond, x, y}, blocks)[0].values<int64_t>(),
              (std::vector<int64_t>{1, 2, 3, -1, -1, -1}));
  // ONNX example: where([[1,0],[1,1]], [[1,2],[3,4]], [[9,8],[7,6]]).
  auto c2 = boolTensor({2, 2}, {1, 0, 1, 1});
  auto x2 = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto y2 = tensor<float>({2, 2}, {9, 8, 7, 6});
  om::OpDef op2 = OpBuilder("where").input(c2).input(x2).input(y2).output(
      om::DT_FLOAT, {2, 2});
  EXPECT_EQ(runOp(op2, {c2, x2, y2}, 3)[0].values<float>(),
            (std::vector<float>{1, 8, 3, 4}));
}

TEST(ElementwiseTest, CastBetweenDtypes) {
  auto f = tensor<float>({5}, {-1.7f, -0.0f, 0.5f, 2.9f, 300.0f});
  auto run = [&](const HostTensor &in, om::DataType to) {
    om::OpDef op = OpBuilder("cast").input(in).output(to, in.shape());
    return runOp(op, {in}, 3)[0];
  };
  EXPECT_EQ(run(f, om::DT_INT32).values<int32_t>(),
            (std::vector<int32_t>{-1, 0, 0, 2, 300}));
  EXPECT_EQ(run(f, om::DT_INT64).values<int64_t>(),
            (std::vector<int64_t>{-1, 0, 0, 2, 300}));
  EXPECT_EQ(run(f, om::DT_BOOL).bytes, (std::vector<uint8_t>{1, 0, 1, 1, 1}));
  EXPECT_EQ(run(f, om::DT_DOUBLE).values<double>(),
            (std::vector<double>{-1.7f, -0.0f, 0.5f, 2.9f, 300.0f}));
  auto i = tensor<int64_t>({3}, {-2, 0, 7});
  EXPECT_EQ(run(i, om::DT_FLOAT).values<float>(),
            (std::vector<float>{-2, 0, 7}));
  EXPECT_EQ(run(i, om::DT_INT8).values<int8_t>(),
            (std::vector<int8_t>{-2, 0, 7}));
  auto b = boolTensor({2}, {1, 0});
  EXPECT_EQ(run(b, om::DT_FLOAT).values<float>(), (std::vector<float>{1, 0}));
  // float -> float16 -> float keeps values float16 can hold.
  HostTensor h =
      run(tensor<float>({3}, {0.5f, -2.0f, 1024.0f}), om::DT_FLOAT16);
  EXPECT_EQ(h.values<uint16_t>(),
            (std::vector<uint16_t>{0x3800, 0xC000, 0x6400}));
  EXPECT_EQ(run(h, om::DT_FLOAT).values<float>(),
            (std::vector<float>{0.5f, -2.0f, 1024.0f}));
  // bfloat16 keeps float's upper half (truncating, as ONNX's test data does).
  HostTensor bf =
      run(tensor<float>({3}, {1.0f, -2.5f, 1.00999999f}), om::DT_BF16);
  EXPECT_EQ(bf.values<uint16_t>(),
            (std::vector<uint16_t>{0x3F80, 0xC020, 0x3F81}));
  EXPECT_EQ(run(bf, om::DT_FLOAT).values<float>(),
            (std::vector<float>{1.0f, -2.5f, 1.0078125f}));
}

TEST(ElementwiseTest, ErrorsNameTheOp) {
  om::OpDef op =
      OpBuilder("exp", "e1").input(om::DT_INT32, {2}).output(om::DT_INT32, {2});
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'e1' (exp)"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("int32"), std::string::npos) << st.message();
}
