//===- PackedConstantTest.cpp - kernels that say they leave W alone
//--------===//
//
// The loader drops the model file's pages of a weight once its kernel says
// run() will not read it (Kernel::readsConstantAtRun). Each kernel here is
// created with its weight, run, then run again with the weight's buffer
// turned to NaN: where it said no, the second run must give the same
// values; the paths that do read W (depthwise, grouped, CPUs without the
// packed GEMM) must say so.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/ConvTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include "executor/kernels/gemm/NnPackedGemm.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// When a kernel keeps its weight in a form of its own.
enum class Packs { kNever, kWithPackedGemm, kAlways };

struct PackedCase {
  om::OpDef op;
  std::vector<Shape> inputs; // input 1 is the weight
  Packs packs;
};

/// Runs `kernel` over `in` as 3 blocks, each its own host thread's share.
std::vector<float> runKernel(const Kernel &kernel, const om::OpDef &op,
                             const std::vector<std::vector<float>> &in) {
  std::vector<TensorView> inputs, outputs;
  for (int i = 0; i < op.input_desc_size(); ++i)
    inputs.push_back({const_cast<float *>(in[i].data()), &op.input_desc(i)});
  std::vector<float> out(count(shapeOf(op.output_desc(0))), 12345.0f);
  outputs.push_back({out.data(), &op.output_desc(0)});
  constexpr uint32_t kBlocks = 3;
  for (uint32_t b = 0; b < kBlocks; ++b) {
    rt::KernelHostThreadsScope threads(kBlocks);
    EXPECT_TRUE(kernel.run(inputs.data(), outputs.data(), b, kBlocks).isOk());
  }
  return out;
}

void expectPromiseKept(const PackedCase &c, unsigned seed) {
  SCOPED_TRACE(c.op.name());
  std::vector<std::vector<float>> in;
  for (const Shape &s : c.inputs)
    in.push_back(random(count(s), seed++));
  KernelSpec spec;
  spec.op = &c.op;
  spec.constantInputs.assign(c.op.input_desc_size(), nullptr);
  spec.constantInputs[1] = in[1].data();
  std::unique_ptr<Kernel> kernel;
  ASSERT_TRUE(createKernel(spec, &kernel).isOk());
  const bool reads = kernel->readsConstantAtRun(1);
  const bool packs =
      c.packs == Packs::kAlways ||
      (c.packs == Packs::kWithPackedGemm && nn::packedGemmAvailable());
  EXPECT_EQ(reads, !packs);
  EXPECT_TRUE(kernel->readsConstantAtRun(0));
  const std::vector<float> before = runKernel(*kernel, c.op, in);
  if (reads)
    return;
  for (float &v : in[1])
    v = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> after = runKernel(*kernel, c.op, in);
  for (size_t i = 0; i < before.size(); ++i)
    ASSERT_EQ(after[i], before[i]) << "at " << i;
}

PackedCase conv(const std::string &name, const ConvCase &cc, Packs packs) {
  const Geo g = convGeometry(cc);
  Shape y = {cc.x[0], cc.w[0]};
  for (size_t i = 2; i < cc.x.size(); ++i)
    y.push_back(g.out[3 - (cc.x.size() - 2) + (i - 2)]);
  PackedCase c{makeOp("conv", cc, y), {cc.x, cc.w}, packs};
  c.op.set_name(name);
  if (cc.bias)
    c.inputs.push_back({cc.w[0]});
  return c;
}

PackedCase gemm(const std::string &type, Shape a, Shape b, Shape y,
                bool transB) {
  PackedCase c;
  c.op.set_name(type + (transB ? "_bt" : ""));
  c.op.set_type(type);
  *c.op.add_input_desc() = desc(a);
  *c.op.add_input_desc() = desc(b);
  *c.op.add_output_desc() = desc(y);
  if (transB)
    setInt(c.op, "transB", 1);
  c.inputs = {a, b};
  c.packs = Packs::kWithPackedGemm;
  return c;
}

TEST(PackedConstant, KernelsThatPackedTheirWeightsNeverReadThem) {
  const std::vector<PackedCase> cases = {
      // Winograd: 3x3 stride 1, enough channels; U transformed at creation
      // on every CPU.
      conv("winograd",
           {{1, 64, 14, 14}, {64, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
           Packs::kAlways),
      // The im2col GEMM on packed rows: a strided 3x3 on a large map, and
      // a 1x1 reading X in place.
      conv("columns",
           {{1, 16, 40, 40},
            {32, 16, 3, 3},
            1,
            {2, 2},
            {1, 1, 1, 1},
            {},
            "",
            true},
           Packs::kWithPackedGemm),
      conv("pointwise",
           {{1, 32, 28, 28}, {48, 32, 1, 1}, 1, {}, {}, {}, "", false},
           Packs::kWithPackedGemm),
      // Positions on rows: a small map.
      conv("position_rows",
           {{1, 64, 7, 7}, {96, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
           Packs::kWithPackedGemm),
      // W read as it lies: depthwise and grouped.
      conv("depthwise",
           {{1, 32, 14, 14}, {32, 1, 3, 3}, 32, {}, {1, 1, 1, 1}, {}, "", true},
           Packs::kNever),
      conv("grouped",
           {{1, 32, 14, 14}, {32, 4, 3, 3}, 8, {}, {1, 1, 1, 1}, {}, "", false},
           Packs::kNever),
      gemm("gemm", {20, 64}, {64, 40}, {20, 40}, false),
      gemm("gemm", {20, 64}, {40, 64}, {20, 40}, true),
      gemm("matmul", {1, 30, 64}, {64, 50}, {1, 30, 50}, false),
  };
  unsigned seed = 11;
  for (const PackedCase &c : cases)
    expectPromiseKept(c, seed += 10);
}

} // namespace
