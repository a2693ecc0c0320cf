//===- FusionSupport.cpp --------------------------------------------------===//

#include "passes/fusion/FusionSupport.h"

#include "ir/ElementsBytes.h"
#include "ir/GeOps.h"
#include "ir/OpFacts.h"
#include "ir/ShapeFunctions.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>
#include <limits>

using namespace mlir;

namespace geflow::passes::fusion {

std::optional<FloatConstant> getFloatConstant(Value v) {
  ElementsAttr value;
  if (!v || !matchPattern(v, m_Constant(&value)) ||
      !value.getElementType().isF32() ||
      !value.getShapedType().hasStaticShape())
    return std::nullopt;
  FloatConstant c;
  auto shape = value.getShapedType().getShape();
  c.shape.assign(shape.begin(), shape.end());
  if (std::optional<ArrayRef<char>> bytes = mlir::ge::getStoredBytes(value)) {
    c.values.resize(value.getNumElements());
    std::memcpy(c.values.data(), bytes->data(), bytes->size());
    return c;
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return std::nullopt;
  c.values.reserve(dense.getNumElements());
  for (float f : dense.getValues<float>())
    c.values.push_back(f);
  return c;
}

/// Row-major strides of `shape` right-aligned to rank `rank`, 0 along the
/// dims where `shape` broadcasts.
static SmallVector<int64_t, 4> broadcastStrides(ArrayRef<int64_t> shape,
                                                size_t rank) {
  SmallVector<int64_t, 4> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    size_t dim = shape.size() - 1 - i;
    if (shape[dim] != 1)
      strides[rank - 1 - i] = stride;
    stride *= shape[dim];
  }
  return strides;
}

std::optional<FloatConstant>
broadcastCombine(const FloatConstant &a, const FloatConstant &b,
                 llvm::function_ref<float(float, float)> fn) {
  FailureOr<mlir::ge::Shape> shape =
      mlir::ge::broadcastShapes(a.shape, b.shape);
  if (failed(shape))
    return std::nullopt;
  FloatConstant out;
  out.shape.assign(shape->begin(), shape->end());
  size_t rank = out.shape.size();
  SmallVector<int64_t, 4> sa = broadcastStrides(a.shape, rank),
                          sb = broadcastStrides(b.shape, rank);
  int64_t count = 1;
  for (int64_t d : out.shape)
    count *= d;
  out.values.resize(count);
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < rank; ++d) {
      ia += index[d] * sa[d];
      ib += index[d] * sb[d];
    }
    out.values[i] = fn(a.values[ia], b.values[ib]);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < out.shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

Value createConstant(PatternRewriter &rewriter, Location loc,
                     const FloatConstant &c) {
  auto type = RankedTensorType::get(c.shape, rewriter.getF32Type());
  auto value = DenseElementsAttr::get(type, ArrayRef<float>(c.values));
  return rewriter.create<mlir::ge::ConstantOp>(loc, value);
}

std::optional<SmallVector<float>> perChannelValues(const FloatConstant &c,
                                                   int64_t rank, int64_t axis,
                                                   int64_t channels) {
  if (static_cast<int64_t>(c.shape.size()) > rank)
    return std::nullopt;
  int64_t offset = rank - c.shape.size();
  for (size_t i = 0; i < c.shape.size(); ++i) {
    int64_t dim = offset + i;
    if (c.shape[i] != 1 && !(dim == axis && c.shape[i] == channels))
      return std::nullopt;
  }
  if (c.values.size() == 1)
    return SmallVector<float>(channels, c.values[0]);
  return SmallVector<float>(c.values.begin(), c.values.end());
}

std::optional<CubeKind> cubeKind(Operation *op) {
  using namespace mlir::ge;
  if (!op)
    return std::nullopt;
  if (isa<ConvOp>(op) || (isa<FusedConvOp>(op) && hasNoActivation(op)))
    return CubeKind::kConv;
  if (isa<GemmOp>(op) || (isa<FusedGemmOp>(op) && hasNoActivation(op)))
    return CubeKind::kGemm;
  if (isa<MatMulOp>(op) || (isa<FusedMatMulOp>(op) && hasNoActivation(op)))
    return CubeKind::kMatMul;
  return std::nullopt;
}

Value cubeBias(Operation *op) {
  using namespace mlir::ge;
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<ConvOp, FusedConvOp>([](auto conv) { return conv.getB(); })
      .Case<GemmOp, FusedGemmOp>([](auto gemm) { return gemm.getC(); })
      .Case<FusedMatMulOp>([](auto matmul) { return matmul.getBias(); })
      .Default([](Operation *) { return Value(); });
}

Value cubeResidual(Operation *op) {
  if (auto conv = dyn_cast<mlir::ge::FusedConvOp>(op))
    return conv.getZ();
  return Value();
}

Operation *createFusedCube(PatternRewriter &rewriter, Location loc,
                           Operation *cube, Value weight, Value bias,
                           Value residual, ArrayRef<NamedAttribute> attrs) {
  CubeKind kind = *cubeKind(cube);
  SmallVector<Value, 4> operands = {cube->getOperand(0),
                                    weight ? weight : cube->getOperand(1)};
  if (bias)
    operands.push_back(bias);
  if (kind != CubeKind::kConv)
    return createLike(rewriter, loc, cube,
                      kind == CubeKind::kGemm ? "ge.fused_gemm"
                                              : "ge.fused_matmul",
                      operands, attrs);
  if (residual)
    operands.push_back(residual);
  return createLike(rewriter, loc, cube, "ge.fused_conv", operands, attrs,
                    {1, 1, bias ? 1 : 0, residual ? 1 : 0});
}

/// The float value of a constant scalar operand, `fallback` when absent.
static std::optional<float> scalarOr(Value v, float fallback) {
  if (!v)
    return fallback;
  std::optional<FloatConstant> c = getFloatConstant(v);
  if (!c || c->values.size() != 1)
    return std::nullopt;
  return c->values[0];
}

std::optional<Activation> matchActivation(Operation *op) {
  if (!op || op->getNumResults() != 1 ||
      !cast<ShapedType>(op->getResult(0).getType()).getElementType().isF32())
    return std::nullopt;
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("ge."))
    return std::nullopt;
  std::optional<unsigned> paramCount = mlir::ge::activationParamCount(name);
  if (!paramCount || name == "none")
    return std::nullopt;
  if (auto clip = dyn_cast<mlir::ge::ClipOp>(op)) {
    // Clip's bounds are operands, which must be constant (or absent).
    constexpr float kInf = std::numeric_limits<float>::infinity();
    std::optional<float> lo = scalarOr(clip.getMin(), -kInf);
    std::optional<float> hi = scalarOr(clip.getMax(), kInf);
    if (!lo || !hi)
      return std::nullopt;
    return Activation{"clip", {*lo, *hi}};
  }
  if (auto gelu = dyn_cast<mlir::ge::GeluOp>(op)) {
    if (gelu.getApproximate() == "none")
      return Activation{"gelu", {}};
    if (gelu.getApproximate() == "tanh")
      return Activation{"gelu_tanh", {}};
    return std::nullopt;
  }
  Activation activation{name.str(), {}};
  if (const mlir::ge::ElementwiseParams *params =
          mlir::ge::elementwiseParams(name))
    for (unsigned i = 0; i < *paramCount; ++i)
      activation.params.push_back(
          floatAttrOr(op, params->names[i], params->defaults[i]));
  return activation;
}

float floatAttrOr(Operation *op, StringRef name, float fallback) {
  auto attr = op->getAttrOfType<FloatAttr>(name);
  return attr ? static_cast<float>(attr.getValueAsDouble()) : fallback;
}

Operation *soleUser(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  return *v.getUsers().begin();
}

bool hasNoActivation(Operation *op) {
  auto activation = op->getAttrOfType<StringAttr>("activation");
  return !activation || activation.getValue() == "none";
}

Operation *createLike(PatternRewriter &rewriter, Location loc,
                      Operation *source, StringRef name, ValueRange operands,
                      ArrayRef<NamedAttribute> attrs,
                      ArrayRef<int32_t> segments) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(source->getResultTypes());
  NamedAttrList list;
  for (NamedAttribute attr : source->getAttrs())
    if (attr.getName() != "operandSegmentSizes")
      list.set(attr.getName(), attr.getValue());
  for (NamedAttribute attr : attrs)
    list.set(attr.getName(), attr.getValue());
  if (!segments.empty())
    list.set("operandSegmentSizes", rewriter.getDenseI32ArrayAttr(segments));
  state.addAttributes(list);
  return rewriter.create(state);
}

SmallVector<NamedAttribute, 2> activationAttrs(Builder &builder,
                                               const Activation &activation) {
  SmallVector<NamedAttribute, 2> attrs;
  attrs.push_back(builder.getNamedAttr("activation",
                                       builder.getStringAttr(activation.name)));
  if (!activation.params.empty())
    attrs.push_back(builder.getNamedAttr(
        "activation_params", builder.getDenseF32ArrayAttr(activation.params)));
  return attrs;
}

Location fusedLoc(Operation *first, Operation *second) {
  return FusedLoc::get(first->getContext(),
                       {first->getLoc(), second->getLoc()});
}

LogicalResult applyPatternsWhereRooted(Operation *root,
                                       RewritePatternSet &&patterns,
                                       GreedyRewriteConfig config) {
  llvm::SmallDenseSet<OperationName, 8> kinds;
  bool anyOp = false;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns()) {
    std::optional<OperationName> kind = pattern->getRootKind();
    anyOp |= !kind;
    if (kind)
      kinds.insert(*kind);
  }
  if (!anyOp) {
    WalkResult found = root->walk([&](Operation *op) {
      return kinds.contains(op->getName()) ? WalkResult::interrupt()
                                           : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return success();
  }
  return applyPatternsAndFoldGreedily(root, std::move(patterns), config);
}

} // namespace geflow::passes::fusion
