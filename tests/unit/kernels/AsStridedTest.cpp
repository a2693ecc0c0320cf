//===- AsStridedTest.cpp - as_strided against a direct loop
//----------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

// The head split of a [16, 1, 192] QKV projection: K as [4, 16, 16] with the
// sequence innermost (strides 16, 1, 192, offset 64).
TEST(AsStridedKernel, ReadsTheStridedView) {
  std::vector<float> qkv(16 * 192);
  for (size_t i = 0; i < qkv.size(); ++i)
    qkv[i] = static_cast<float>(i);
  std::vector<HostTensor> in = {tensor<float>({16, 1, 192}, qkv)};
  om::OpDef op = OpBuilder("as_strided")
                     .input(in[0])
                     .output(om::DT_FLOAT, {4, 16, 16})
                     .attr("offset", int64_t(64))
                     .attrInts("strides", {16, 1, 192})
                     .op();
  std::vector<float> want;
  for (int h = 0; h < 4; ++h)
    for (int d = 0; d < 16; ++d)
      for (int s = 0; s < 16; ++s)
        want.push_back(qkv[64 + h * 16 + d + s * 192]);
  EXPECT_EQ(runAll<float>(op, in), want);
}

TEST(AsStridedKernel, RejectsReadsOutsideTheInput) {
  HostTensor x = tensor<float>({4, 4}, std::vector<float>(16, 0.0f));
  om::OpDef op = OpBuilder("as_strided", "view")
                     .input(x)
                     .output(om::DT_FLOAT, {4, 4})
                     .attr("offset", int64_t(1))
                     .attrInts("strides", {4, 1})
                     .op();
  rt::Status st;
  runOp(op, {x}, 1, false, &st);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(
      st.message().find("node 'view' (as_strided): reads outside its input"),
      std::string::npos)
      << st.message();
}

} // namespace
