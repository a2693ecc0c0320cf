//===- TensorCompareTest.cpp - geflow run --expect's comparison -----------===//
//
// Floats compare within atol + rtol * |want|; integers within atol alone, so
// a quantized (int8/uint8) output may be one step off with --atol 1 and must
// be equal with the default; booleans must be equal.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/TensorFiles.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace geflow;
using geflow::cli::compareTensors;
using geflow::cli::HostTensor;

namespace {

template <class T>
HostTensor makeTensor(om::DataType dtype, std::vector<T> values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = {static_cast<int64_t>(values.size())};
  t.bytes.resize(values.size() * sizeof(T));
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

TEST(TensorCompare, QuantizedOutputsTakeAtolAlone) {
  HostTensor want = makeTensor<uint8_t>(om::DT_UINT8, {0, 128, 255});
  HostTensor oneOff = makeTensor<uint8_t>(om::DT_UINT8, {1, 127, 255});
  HostTensor twoOff = makeTensor<uint8_t>(om::DT_UINT8, {0, 130, 255});
  EXPECT_EQ(compareTensors(oneOff, want, 0.0, 1.0), "");
  EXPECT_EQ(compareTensors(twoOff, want, 0.0, 1.0),
            "element 1: got 130, want 128");
  // The defaults (and the conformance runner's tolerances) keep them exact;
  // rtol does not loosen integers.
  EXPECT_EQ(compareTensors(oneOff, want, 1e-3, 1e-5),
            "element 0: got 1, want 0");
  HostTensor i8 = makeTensor<int8_t>(om::DT_INT8, {-128, 127});
  HostTensor i8Off = makeTensor<int8_t>(om::DT_INT8, {-127, 127});
  EXPECT_EQ(compareTensors(i8Off, i8, 0.5, 0.0),
            "element 0: got -127, want -128");
  EXPECT_EQ(compareTensors(i8Off, i8, 0.0, 1.0), "");
}

TEST(TensorCompare, BooleansAndFloats) {
  HostTensor t = makeTensor<uint8_t>(om::DT_BOOL, {1, 0});
  HostTensor f = makeTensor<uint8_t>(om::DT_BOOL, {1, 1});
  EXPECT_EQ(compareTensors(f, t, 0.0, 1.0), "element 1: got 1, want 0");
  HostTensor want = makeTensor<float>(om::DT_FLOAT, {1.0f, 100.0f});
  HostTensor got = makeTensor<float>(om::DT_FLOAT, {1.5f, 100.05f});
  EXPECT_EQ(compareTensors(got, want, 1e-3, 0.5), "");
  EXPECT_NE(compareTensors(got, want, 1e-3, 0.1), "");
}

} // namespace
