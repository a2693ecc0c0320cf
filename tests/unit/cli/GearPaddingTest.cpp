//===- GearPaddingTest.cpp - Inputs padded to a gear, outputs cut back ----===//

#include "tools/geflow/GearPadding.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace geflow;
using namespace geflow::cli;

namespace {

HostTensor floats(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor t;
  t.name = "t";
  t.dtype = om::DT_FLOAT;
  t.shape = std::move(shape);
  t.bytes.resize(values.size() * 4);
  if (!values.empty()) // an empty vector's data() may be null
    std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

std::vector<float> valuesOf(const HostTensor &t) {
  std::vector<float> v(t.bytes.size() / 4);
  std::memcpy(v.data(), t.bytes.data(), t.bytes.size());
  return v;
}

TEST(GearPadding, PadsEveryDimensionWithZeros) {
  HostTensor t = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor p = fitTensor(t, {3, 4});
  EXPECT_EQ(p.shape, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(p.name, "t");
  EXPECT_EQ(valuesOf(p),
            (std::vector<float>{1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0}));
}

TEST(GearPadding, SlicesBackToTheLeadingBlock) {
  HostTensor t = floats({3, 4}, {1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0});
  HostTensor s = fitTensor(t, {2, 3});
  EXPECT_EQ(valuesOf(s), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // A padded batch and its slice give the input back.
  HostTensor batch = floats({3, 1, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(valuesOf(fitTensor(fitTensor(batch, {4, 1, 2}), {3, 1, 2})),
            valuesOf(batch));
  EXPECT_EQ(valuesOf(fitTensor(batch, {4, 1, 2})),
            (std::vector<float>{1, 2, 3, 4, 5, 6, 0, 0}));
}

TEST(GearPadding, ScalarsAndEmptyTensors) {
  HostTensor scalar = floats({}, {7});
  EXPECT_EQ(valuesOf(fitTensor(scalar, {})), (std::vector<float>{7}));
  HostTensor empty = floats({0, 2}, {});
  HostTensor padded = fitTensor(empty, {2, 2});
  EXPECT_EQ(valuesOf(padded), (std::vector<float>{0, 0, 0, 0}));
}

} // namespace
