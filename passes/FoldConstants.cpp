//===- FoldConstants.cpp - evaluate constant subgraphs at compile time
//------===//
//
// Pipeline step 2 (docs/architecture.md): an op whose operands are all
// `ge.constant` is computed once, by the kernel that would run it (its OpDef
// from OpDefBuilder.h, then kernels::createKernel), and replaced by a
// `ge.constant` of the result, so the compiler and the executor agree on every
// value by construction. The dialect's folders run too (shape chains), and so
// do the no-op removals of fusion/NoOpRemoval.h. Repeated to a fixed point,
// whole constant subgraphs collapse. A result above `max-elements` elements
// stays an op: folding must not blow up the weights.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/NoOpRemoval.h"

#include "executor/kernels/Kernel.h"
#include "ir/GeOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <vector>

namespace geflow::passes {

#define GEN_PASS_DEF_FOLDCONSTANTS
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;

/// Whether `op` is a compute op over constants only whose results the
/// kernels can produce within `maxElements` elements in all.
bool isFoldable(Operation *op, int64_t maxElements) {
  if (!isComputeOp(op) || op->getNumOperands() == 0 ||
      op->getNumResults() == 0 || !op->getDialect() ||
      op->getDialect()->getNamespace() != "ge")
    return false;
  for (Value operand : op->getOperands())
    if (!operand.getDefiningOp<mlir::ge::ConstantOp>() ||
        tensorBytes(operand.getType()) < 0)
      return false;
  int64_t elements = 0;
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || tensorBytes(type) < 0)
      return false;
    elements += type.getNumElements();
  }
  return elements <= maxElements && kernels::hasKernel(opDefType(op));
}

/// `bytes` (the kernels' layout: row-major, one byte per bool) as an
/// attribute of `type`.
DenseElementsAttr toAttribute(RankedTensorType type,
                              const std::vector<uint8_t> &bytes) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bits(bytes.begin(), bytes.end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(bytes.data()),
                     bytes.size());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

/// Runs `op`'s kernel on its constant operands; the results, or failure when
/// the kernel cannot run it (the op then stays for the executor to report).
FailureOr<SmallVector<DenseElementsAttr>> evaluate(Operation *op) {
  om::OpDef def;
  def.set_name(nameFromLoc(op->getLoc()));
  if (llvm::Error err = fillOpDef(op, def)) {
    llvm::consumeError(std::move(err));
    return failure();
  }
  // Operand bytes, in input_desc order (absent optional inputs have none).
  std::vector<std::vector<uint8_t>> inputBytes(def.input_desc_size());
  kernels::KernelSpec spec;
  spec.op = &def;
  spec.constantInputs.assign(def.input_desc_size(), nullptr);
  std::vector<kernels::TensorView> inputs(def.input_desc_size());
  unsigned next = 0;
  for (int i = 0; i < def.input_desc_size(); ++i) {
    inputs[i].desc = &def.input_desc(i);
    if (def.input_desc(i).dtype() == om::DT_UNDEFINED)
      continue;
    auto constant =
        op->getOperand(next++).getDefiningOp<mlir::ge::ConstantOp>();
    if (llvm::Error err =
            appendElementsBytes(constant.getValue(), inputBytes[i])) {
      llvm::consumeError(std::move(err));
      return failure();
    }
    inputs[i].data = inputBytes[i].data();
    spec.constantInputs[i] = inputBytes[i].data();
  }
  std::vector<std::vector<uint8_t>> outputBytes(def.output_desc_size());
  std::vector<kernels::TensorView> outputs(def.output_desc_size());
  for (int i = 0; i < def.output_desc_size(); ++i) {
    // At least one byte so that an empty tensor still has an address.
    outputBytes[i].resize(std::max<int64_t>(def.output_desc(i).size(), 1));
    outputs[i] = {outputBytes[i].data(), &def.output_desc(i)};
  }
  kernels::KernelPlan plan;
  std::unique_ptr<kernels::Kernel> kernel;
  if (!kernels::planKernel(def, &plan).isOk() ||
      !kernels::createKernel(spec, &kernel).isOk() ||
      !kernel->run(inputs.data(), outputs.data(), 0, 1).isOk())
    return failure();
  SmallVector<DenseElementsAttr> results;
  for (auto [result, bytes] : llvm::zip(op->getResults(), outputBytes)) {
    auto type = cast<RankedTensorType>(result.getType());
    bytes.resize(tensorBytes(type));
    results.push_back(toAttribute(type, bytes));
  }
  return results;
}

struct EvaluateOnConstants : RewritePattern {
  EvaluateOnConstants(MLIRContext *context, int64_t maxElements)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isFoldable(op, maxElements))
      return failure();
    FailureOr<SmallVector<DenseElementsAttr>> values = evaluate(op);
    if (failed(values))
      return rewriter.notifyMatchFailure(op, "its kernel cannot evaluate it");
    SmallVector<Value> constants;
    for (DenseElementsAttr value : *values)
      constants.push_back(
          rewriter.create<mlir::ge::ConstantOp>(op->getLoc(), value));
    rewriter.replaceOp(op, constants);
    return success();
  }

  int64_t maxElements;
};

struct FoldConstantsPass : impl::FoldConstantsBase<FoldConstantsPass> {
  using FoldConstantsBase::FoldConstantsBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EvaluateOnConstants>(&getContext(), maxElements);
    fusion::populateNoOpRemovalPatterns(patterns);
    // Not converging within the driver's iteration cap leaves a correct,
    // partly rewritten function: no reason to fail the compile.
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       fusion::graphRewriteConfig());
  }
};

} // namespace
} // namespace geflow::passes
