//===- ElementwiseLogicalTest.cpp - mod, logical, bit shift, >=, <= -------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// A tensor of an unsigned type KernelTestUtil's dtypeFor does not name.
template <class T>
HostTensor unsignedTensor(om::DataType dtype, const std::vector<int64_t> &shape,
                          const std::vector<T> &values) {
  HostTensor t;
  t.desc = makeDesc(dtype, shape);
  const auto *src = reinterpret_cast<const uint8_t *>(values.data());
  t.bytes.assign(src, src + values.size() * sizeof(T));
  return t;
}

/// `type` over a and b of one shape, output of `outDtype`.
std::vector<HostTensor> runBinary(OpBuilder b, const HostTensor &x,
                                  const HostTensor &y, om::DataType outDtype,
                                  const std::vector<int64_t> &outShape,
                                  uint32_t blocks = 3) {
  om::OpDef op = b.input(x).input(y).output(outDtype, outShape);
  return runOp(op, {x, y}, blocks);
}

} // namespace

TEST(ElementwiseLogicalTest, IntegerModTakesTheDivisorsSign) {
  auto a = tensor<int32_t>({6}, {-4, 7, 5, 4, -7, 8});
  auto b = tensor<int32_t>({6}, {2, -3, 8, -2, 3, 5});
  // Python: -4 % 2 = 0, 7 % -3 = -2, 5 % 8 = 5, 4 % -2 = 0, -7 % 3 = 2.
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runBinary(OpBuilder("mod"), a, b, om::DT_INT32, {6}, blocks)[0]
                  .values<int32_t>(),
              (std::vector<int32_t>{0, -2, 5, 0, 2, 3}));
  // fmod = 1: the dividend's sign (C).
  EXPECT_EQ(runBinary(OpBuilder("mod").attr("fmod", int64_t(1)), a, b,
                      om::DT_INT32, {6})[0]
                .values<int32_t>(),
            (std::vector<int32_t>{0, 1, 5, 0, -1, 3}));
}

TEST(ElementwiseLogicalTest, ModEdgeCasesDoNotTrap) {
  // A zero divisor and INT_MIN % -1 give 0 instead of a trap.
  auto a = tensor<int64_t>({3}, {5, std::numeric_limits<int64_t>::min(), -9});
  auto b = tensor<int64_t>({3}, {0, -1, 4});
  EXPECT_EQ(
      runBinary(OpBuilder("mod"), a, b, om::DT_INT64, {3})[0].values<int64_t>(),
      (std::vector<int64_t>{0, 0, 3}));
  auto ua = tensor<uint8_t>({3}, {250, 7, 9});
  auto ub = tensor<uint8_t>({3}, {7, 0, 3});
  EXPECT_EQ(runBinary(OpBuilder("mod"), ua, ub, om::DT_UINT8, {3})[0]
                .values<uint8_t>(),
            (std::vector<uint8_t>{5, 0, 0}));
  auto i8a = tensor<int8_t>({2}, {-128, 127});
  auto i8b = tensor<int8_t>({2}, {3, -128});
  // -128 % 3 = 1 (Python), 127 % -128 = -1.
  EXPECT_EQ(runBinary(OpBuilder("mod"), i8a, i8b, om::DT_INT8, {2})[0]
                .values<int8_t>(),
            (std::vector<int8_t>{1, -1}));
}

TEST(ElementwiseLogicalTest, FloatModIsFmodAndBroadcasts) {
  auto a = tensor<float>({2, 3}, {-4.3f, 7.2f, 5.0f, 4.3f, -7.2f, 8.0f});
  auto b = tensor<float>({3}, {2.1f, -3.4f, 8.0f});
  std::vector<float> expected = {
      std::fmod(-4.3f, 2.1f), std::fmod(7.2f, -3.4f),  5.0f,
      std::fmod(4.3f, 2.1f),  std::fmod(-7.2f, -3.4f), 0.0f};
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runBinary(OpBuilder("mod").attr("fmod", int64_t(1)), a, b,
                        om::DT_FLOAT, {2, 3}, blocks)[0]
                  .values<float>(),
              expected);
  // x mod 0 is NaN, as fmod has it.
  auto zero = tensor<float>({1}, {0.0f});
  auto one = tensor<float>({1}, {1.0f});
  EXPECT_TRUE(std::isnan(runBinary(OpBuilder("mod").attr("fmod", int64_t(1)),
                                   one, zero, om::DT_FLOAT, {1})[0]
                             .values<float>()[0]));
}

TEST(ElementwiseLogicalTest, AndOrXorBroadcastOnBool) {
  // [2,2] op [2]: rows (1,1), (0,1) against (1,0).
  auto a = boolTensor({2, 2}, {1, 1, 0, 1});
  auto b = boolTensor({2}, {1, 0});
  struct Case {
    const char *type;
    std::vector<uint8_t> expected;
  } cases[] = {
      {"and", {1, 0, 0, 0}}, {"or", {1, 1, 1, 1}}, {"xor", {0, 1, 1, 1}}};
  for (const Case &c : cases)
    for (uint32_t blocks : kBlockDims)
      EXPECT_EQ(
          runBinary(OpBuilder(c.type), a, b, om::DT_BOOL, {2, 2}, blocks)[0]
              .bytes,
          c.expected)
          << c.type;
  // Not bool: the kernel says so.
  auto f = tensor<float>({2}, {1, 0});
  om::OpDef op = OpBuilder("and").input(f).input(f).output(om::DT_FLOAT, {2});
  KernelPlan plan;
  EXPECT_FALSE(planKernel(op, &plan).isOk());
}

TEST(ElementwiseLogicalTest, BitShiftBothWaysOnEveryUnsignedWidth) {
  auto x8 = tensor<uint8_t>({4}, {16, 4, 1, 255});
  auto y8 = tensor<uint8_t>({4}, {1, 2, 7, 8});
  EXPECT_EQ(runBinary(OpBuilder("bit_shift").attr("direction", "LEFT"), x8, y8,
                      om::DT_UINT8, {4})[0]
                .values<uint8_t>(),
            (std::vector<uint8_t>{32, 16, 128, 0}));
  EXPECT_EQ(runBinary(OpBuilder("bit_shift").attr("direction", "RIGHT"), x8, y8,
                      om::DT_UINT8, {4})[0]
                .values<uint8_t>(),
            (std::vector<uint8_t>{8, 1, 0, 0}));
  auto x16 = unsignedTensor<uint16_t>(om::DT_UINT16, {2}, {0x8001, 3});
  auto y16 = unsignedTensor<uint16_t>(om::DT_UINT16, {1}, {1});
  EXPECT_EQ(runBinary(OpBuilder("bit_shift").attr("direction", "LEFT"), x16,
                      y16, om::DT_UINT16, {2})[0]
                .values<uint16_t>(),
            (std::vector<uint16_t>{2, 6}));
  auto x32 = unsignedTensor<uint32_t>(om::DT_UINT32, {3}, {1, 0x80000000u, 9});
  auto y32 = unsignedTensor<uint32_t>(om::DT_UINT32, {3}, {31, 31, 32});
  EXPECT_EQ(runBinary(OpBuilder("bit_shift").attr("direction", "RIGHT"), x32,
                      y32, om::DT_UINT32, {3})[0]
                .values<uint32_t>(),
            (std::vector<uint32_t>{0, 1, 0}));
  auto x64 = unsignedTensor<uint64_t>(om::DT_UINT64, {2}, {1, 5});
  auto y64 = unsignedTensor<uint64_t>(om::DT_UINT64, {2}, {63, 64});
  EXPECT_EQ(runBinary(OpBuilder("bit_shift").attr("direction", "LEFT"), x64,
                      y64, om::DT_UINT64, {2})[0]
                .values<uint64_t>(),
            (std::vector<uint64_t>{uint64_t(1) << 63, 0}));
  // A direction other than LEFT / RIGHT is an error, not a guess.
  om::OpDef bad = OpBuilder("bit_shift")
                      .attr("direction", "UP")
                      .input(x8)
                      .input(y8)
                      .output(om::DT_UINT8, {4});
  KernelPlan plan;
  rt::Status status = planKernel(bad, &plan);
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("direction"), std::string::npos);
}

TEST(ElementwiseLogicalTest, GreaterOrEqualAndLessOrEqual) {
  auto a = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = tensor<float>({3}, {2, 2, 2});
  for (uint32_t blocks : kBlockDims) {
    EXPECT_EQ(runBinary(OpBuilder("greater_or_equal"), a, b, om::DT_BOOL,
                        {2, 3}, blocks)[0]
                  .bytes,
              (std::vector<uint8_t>{0, 1, 1, 1, 1, 1}));
    EXPECT_EQ(runBinary(OpBuilder("less_or_equal"), a, b, om::DT_BOOL, {2, 3},
                        blocks)[0]
                  .bytes,
              (std::vector<uint8_t>{1, 1, 0, 0, 0, 0}));
  }
  auto ia = tensor<int16_t>({2}, {-5, 5});
  auto ib = tensor<int16_t>({2}, {-5, 6});
  EXPECT_EQ(
      runBinary(OpBuilder("less_or_equal"), ia, ib, om::DT_BOOL, {2})[0].bytes,
      (std::vector<uint8_t>{1, 1}));
}

TEST(ElementwiseLogicalTest, CastLikeConvertsToTheTargetsDtype) {
  auto x = tensor<float>({3}, {1.9f, -2.5f, 0.0f});
  auto like = tensor<int32_t>({1}, {0});
  om::OpDef op =
      OpBuilder("cast_like").input(x).input(like).output(om::DT_INT32, {3});
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {x, like}, blocks)[0].values<int32_t>(),
              (std::vector<int32_t>{1, -2, 0}));
}
