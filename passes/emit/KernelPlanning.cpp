//===- KernelPlanning.cpp - engine, split and cost of one op --------------===//

#include "passes/emit/KernelPlanning.h"

#include "ir/OpFacts.h"

#include <algorithm>
#include <cmath>

namespace geflow::passes {

namespace {

int64_t elements(const om::TensorDescriptor &desc) {
  int64_t n = 1;
  for (int64_t d : desc.shape())
    n *= std::max<int64_t>(d, 0);
  return n;
}

/// Multiply-accumulates of the cube ops, from the descriptors fillOpDef
/// writes (operands in ONNX order).
double cubeMacs(const om::OpDef &op) {
  auto dim = [&](int input, int index) -> int64_t {
    if (op.input_desc_size() <= input)
      return 1;
    const auto &shape = op.input_desc(input).shape();
    if (index < 0)
      index += shape.size();
    return index >= 0 && index < shape.size()
               ? std::max<int64_t>(shape[index], 1)
               : 1;
  };
  auto weightWindow = [&]() { // W: [M, C/group, k...]; C/group * prod(k)
    int64_t n = 1;
    if (op.input_desc_size() > 1)
      for (int i = 1; i < op.input_desc(1).shape_size(); ++i)
        n *= std::max<int64_t>(op.input_desc(1).shape(i), 1);
    return n;
  };
  const std::string &type = op.type();
  double out = op.output_desc_size() ? double(elements(op.output_desc(0))) : 0;
  if (type == "conv" || type == "fused_conv")
    return out * weightWindow();
  if (type == "conv_transpose") // every input element meets the whole window
    return op.input_desc_size()
               ? double(elements(op.input_desc(0))) * weightWindow()
               : 0;
  if (type == "matmul" || type == "fused_matmul")
    return out * dim(0, -1);
  if (type == "gemm" || type == "fused_gemm") {
    auto it = op.attr().find("transA");
    bool transA = it != op.attr().end() && it->second.i() != 0;
    return out * (transA ? dim(0, 0) : dim(0, 1));
  }
  return 0;
}

/// The estimate used until a kernel exists: 2 FLOPs per MAC for cube work,
/// one per output element otherwise; every input read and output written
/// once; one block per 1024 output elements.
kernels::KernelPlan estimatePlan(const om::OpDef &op) {
  kernels::KernelPlan plan;
  plan.engine = defaultEngine(op.type());
  double bytes = 0, outElements = 0;
  for (const auto &d : op.input_desc())
    bytes += d.size();
  for (const auto &d : op.output_desc()) {
    bytes += d.size();
    outElements += elements(d);
  }
  plan.cost.bytes = bytes;
  plan.cost.flops =
      plan.engine == rt::Engine::kAic ? 2 * cubeMacs(op) : outElements;
  double blocks = std::ceil(outElements / 1024.0);
  plan.maxBlocks = static_cast<uint32_t>(std::clamp(blocks, 1.0, 65535.0));
  return plan;
}

} // namespace

rt::Engine defaultEngine(llvm::StringRef type) {
  std::optional<mlir::ge::Engine> engine = mlir::ge::defaultEngine(type);
  return engine ? runtimeEngine(*engine).value_or(rt::Engine::kAiv)
                : rt::Engine::kAiv;
}

llvm::Expected<OpPlan> planOp(const om::OpDef &op, bool requireKernels) {
  OpPlan result;
  if (kernels::hasKernel(op.type())) {
    rt::Status st = kernels::planKernel(op, &result.kernel);
    if (!st.isOk())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     st.message());
    result.kernel.maxBlocks = std::max<uint32_t>(result.kernel.maxBlocks, 1);
    result.fromKernel = true;
    return result;
  }
  if (requireKernels)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "node '" + (op.name().empty() ? "?" : op.name()) + "' (" + op.type() +
            "): no kernel for op type '" + op.type() + "'");
  result.kernel = estimatePlan(op);
  return result;
}

// The three enums number the engines alike, so each maps onto the next by
// value; HOST exists only above the runtime.
#define GEFLOW_SAME_ENGINE(Ir, Rt, Om)                                         \
  static_assert(static_cast<int>(mlir::ge::Engine::Ir) ==                      \
                        static_cast<int>(rt::Engine::Rt) &&                    \
                    static_cast<int>(mlir::ge::Engine::Ir) ==                  \
                        static_cast<int>(om::Om),                              \
                "engine numbering differs: " #Ir);
GEFLOW_SAME_ENGINE(AIC, kAic, AIC)
GEFLOW_SAME_ENGINE(AIV, kAiv, AIV)
GEFLOW_SAME_ENGINE(MIX, kMix, MIX)
GEFLOW_SAME_ENGINE(AICPU, kAiCpu, AICPU)
GEFLOW_SAME_ENGINE(DVPP, kDvpp, DVPP)
#undef GEFLOW_SAME_ENGINE
static_assert(static_cast<int>(mlir::ge::Engine::HOST) == om::HOST &&
              static_cast<int>(mlir::ge::Engine::HOST) == rt::kNumEngines);

std::optional<rt::Engine> runtimeEngine(mlir::ge::Engine engine) {
  if (engine == mlir::ge::Engine::HOST)
    return std::nullopt;
  return static_cast<rt::Engine>(engine);
}

mlir::ge::Engine irEngine(rt::Engine engine) {
  return static_cast<mlir::ge::Engine>(engine);
}

om::Engine omEngine(mlir::ge::Engine engine) {
  return static_cast<om::Engine>(engine);
}

uint32_t chooseBlockDim(const rt::CostModel &costModel, rt::Engine engine,
                        const kernels::KernelPlan &plan, uint32_t coreLimit) {
  uint32_t cap = std::min(std::max<uint32_t>(plan.maxBlocks, 1),
                          std::max<uint32_t>(costModel.engineCores(engine), 1));
  if (coreLimit > 0)
    cap = std::min(cap, coreLimit);
  return std::clamp<uint32_t>(costModel.bestBlockDim(engine, plan.cost, cap), 1,
                              cap);
}

} // namespace geflow::passes
