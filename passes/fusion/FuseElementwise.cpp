//===- FuseElementwise.cpp - elementwise chains -> fused_elementwise ----===//
//
// Pipeline step 3 (op fusion, docs/architecture.md), last of the fusions (the
// others take the elementwise ops they absorb first). A group is grown upwards
// from a root elementwise op: a producer joins when it is elementwise, has the
// root's result type (so every step runs over the same elements) and every user
// of its result is already in the group. Everything else the group reads is an
// input, which may broadcast (a bias, a scalar constant). Groups of two or more
// ops become one ge.fused_elementwise whose program (ir/GeFusedOps.td) lists
// the ops in block order; its kernel evaluates the program tile by tile, so
// memory sees the inputs and the result once instead of every intermediate.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"
#include "ir/OpFacts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;

/// One op as a step of a fused_elementwise program.
struct StepForm {
  std::string name;
  float params[2] = {0, 0};
  unsigned arity = 1;
};

/// The step `op` is, when it is an elementwise op the fused kernel runs (a
/// Step in the op table).
std::optional<StepForm> stepForm(Operation *op) {
  if (op->getNumResults() != 1 || !fusion::isStaticF32(op->getResult(0)) ||
      !llvm::all_of(op->getOperands(), fusion::isStaticF32))
    return std::nullopt;
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("ge."))
    return std::nullopt;
  unsigned arity = elementwiseStepArity(name);
  // clip's bounds are operands too, which must be constants (below).
  if (arity == 0 || (name != "clip" && op->getNumOperands() != arity))
    return std::nullopt;
  StepForm form;
  form.name = name.str();
  form.arity = arity;
  if (auto gelu = dyn_cast<GeluOp>(op)) {
    if (gelu.getApproximate() == "tanh")
      form.name = "gelu_tanh";
  } else if (isa<ClipOp>(op)) {
    std::optional<fusion::Activation> bounds = fusion::matchActivation(op);
    if (!bounds)
      return std::nullopt;
    form.params[0] = bounds->params[0];
    form.params[1] = bounds->params[1];
  } else if (const ElementwiseParams *params = elementwiseParams(name)) {
    for (int i = 0; i < 2; ++i)
      if (!params->names[i].empty())
        form.params[i] =
            fusion::floatAttrOr(op, params->names[i], params->defaults[i]);
  }
  return form;
}

/// The operands a step reads (clip: only its input).
ValueRange stepOperands(Operation *op, const StepForm &form) {
  return op->getOperands().take_front(form.arity);
}

class ElementwiseFuser {
public:
  ElementwiseFuser(func::FuncOp func, unsigned maxSteps)
      : func_(func), maxSteps_(maxSteps) {}

  void run() {
    // Roots from the bottom up, so each group is as large as it gets.
    SmallVector<Operation *> ops;
    func_.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *root : llvm::reverse(ops)) {
      if (grouped_.contains(root) || !stepForm(root))
        continue;
      SmallVector<Operation *> group = growGroup(root);
      for (Operation *op : group)
        grouped_.insert(op);
      if (group.size() >= 2)
        fuse(group);
    }
  }

private:
  /// The root and the producers that can join it, in block order.
  SmallVector<Operation *> growGroup(Operation *root) {
    llvm::SetVector<Operation *> group;
    group.insert(root);
    Type type = root->getResult(0).getType();
    for (bool grown = true; grown && group.size() < maxSteps_;) {
      grown = false;
      for (size_t i = 0; i < group.size() && group.size() < maxSteps_; ++i) {
        Operation *member = group[i];
        for (Value operand : stepOperands(member, *stepForm(member))) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || group.contains(producer) ||
              grouped_.contains(producer) ||
              producer->getBlock() != root->getBlock() ||
              producer->getDiscardableAttrDictionary() !=
                  root->getDiscardableAttrDictionary() ||
              operand.getType() != type || !stepForm(producer) ||
              !llvm::all_of(operand.getUsers(), [&](Operation *user) {
                return group.contains(user);
              }))
            continue;
          group.insert(producer);
          grown = true;
        }
      }
    }
    SmallVector<Operation *> ordered(group.begin(), group.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    return ordered;
  }

  /// Replaces the group by one fused_elementwise at its last op.
  void fuse(ArrayRef<Operation *> group) {
    // Program values: the inputs in first-use order, then the steps.
    llvm::DenseSet<Operation *> members(group.begin(), group.end());
    SmallVector<Value> inputs;
    llvm::DenseMap<Value, int64_t> valueIndex;
    for (Operation *op : group)
      for (Value operand : stepOperands(op, *stepForm(op)))
        if (!members.contains(operand.getDefiningOp()) &&
            valueIndex.try_emplace(operand, inputs.size()).second)
          inputs.push_back(operand);
    for (auto [j, op] : llvm::enumerate(group))
      valueIndex[op->getResult(0)] = inputs.size() + j;
    auto ref = [&](Value v) { return valueIndex.lookup(v); };
    SmallVector<Attribute> names;
    SmallVector<int64_t> refs;
    SmallVector<float> params;
    bool anyParams = false;
    OpBuilder builder(group.back());
    for (Operation *op : group) {
      StepForm form = *stepForm(op);
      names.push_back(builder.getStringAttr(form.name));
      ValueRange operands = stepOperands(op, form);
      refs.push_back(ref(operands[0]));
      refs.push_back(form.arity == 2 ? ref(operands[1]) : -1);
      params.append({form.params[0], form.params[1]});
      anyParams |= form.params[0] != 0 || form.params[1] != 0;
    }
    SmallVector<NamedAttribute, 3> attrs = {
        builder.getNamedAttr("steps", builder.getArrayAttr(names)),
        builder.getNamedAttr("step_operands",
                             builder.getDenseI64ArrayAttr(refs))};
    if (anyParams)
      attrs.push_back(builder.getNamedAttr(
          "step_params", builder.getDenseF32ArrayAttr(params)));
    Operation *last = group.back();
    auto fused = builder.create<FusedElementwiseOp>(
        fusion::fusedLocOf(group), last->getResultTypes(), inputs, attrs);
    // Scheduling annotations (stream label, core limits) are the group's.
    fused->setDiscardableAttrs(last->getDiscardableAttrDictionary());
    last->getResult(0).replaceAllUsesWith(fused.getY());
    for (Operation *op : llvm::reverse(group))
      op->erase();
  }

  func::FuncOp func_;
  unsigned maxSteps_;
  llvm::DenseSet<Operation *> grouped_;
};

struct FuseElementwisePass : impl::FuseElementwiseBase<FuseElementwisePass> {
  using FuseElementwiseBase::FuseElementwiseBase;

  void runOnOperation() override {
    ElementwiseFuser(getOperation(), maxSteps).run();
  }
};

} // namespace
} // namespace geflow::passes
