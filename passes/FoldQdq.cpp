//===- FoldQdq.cpp - DequantizeLinear -> Conv/MatMul -> QuantizeLinear ----===//
//
// A quantized model in QDQ form keeps its cube ops in float between a
// DequantizeLinear of each operand and a QuantizeLinear of the result. GE
// runs such a conv or matmul as the quantized cube op itself; so does this
// pass, before constant folding would turn the weights' DequantizeLinear
// into float constants:
//
//   q(conv(dq(x), dq(w), B)) -> qlinear_conv(x, .., w, .., y_scale, .., B')
//   q(matmul(dq(a), dq(b)))  -> qlinear_matmul(a, .., b, .., y_scale, ..)
//
// What QLinearConv/QLinearMatMul can say is required: int8/uint8 operands,
// per-tensor activation and output scales, weights per tensor or per output
// channel (conv: axis 0; matmul: the columns of a 2-D b). A conv's float bias
// becomes int32 at scale x_scale * w_scale[m] (constants only; a bias in QDQ
// form, DequantizeLinear of int32, is read the same way). Absent zero points
// become constant zeros. The float op must have no other user. A ReLU between
// the op and q (conv + relu) folds too when q's zero point is 0: quantizing
// commutes with it, so it is uint8's saturation or a ReLU of the int8 result.
// A data movement (reshape, flatten, ...) between a DequantizeLinear and a
// QuantizeLinear of the same parameters runs on the int8 tensor itself.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/ElementsBytes.h"
#include "ir/GeOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace geflow::passes {

#define GEN_PASS_DEF_FOLDQDQ
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace fusion;
using mlir::ge::DequantizeLinearOp;
using mlir::ge::QuantizeLinearOp;

int64_t elementCount(Value v) {
  return cast<RankedTensorType>(v.getType()).getNumElements();
}
Type elementType(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}
bool isQuantType(Type t) { return t.isInteger(8); }

/// The int8/uint8 tensor a DequantizeLinear reads, with its parameters.
struct Dequantized {
  Value q, scale, zeroPoint; // zeroPoint may be null
  int64_t axis = 0;          // normalised; meaningful when per axis
};

std::optional<Dequantized> dequantized(Value v) {
  auto dq = v.getDefiningOp<DequantizeLinearOp>();
  if (!dq || !isQuantType(elementType(dq.getX())))
    return std::nullopt;
  int64_t rank = cast<RankedTensorType>(dq.getX().getType()).getRank();
  int64_t axis = dq.getAxis() < 0 ? dq.getAxis() + rank : dq.getAxis();
  return Dequantized{dq.getX(), dq.getXScale(), dq.getXZeroPoint(), axis};
}

/// Per tensor, or per axis `axis` with `slices` entries.
bool perTensorOrAxis(const Dequantized &d, int64_t axis, int64_t slices) {
  int64_t n = elementCount(d.scale);
  return n == 1 || (d.axis == axis && n == slices);
}

/// `zp`, or a constant scalar 0 of `element` (int8 or uint8) when absent.
Value zeroPointOr(PatternRewriter &rewriter, Location loc, Value zp,
                  Type element) {
  if (zp)
    return zp;
  auto type = RankedTensorType::get({}, element);
  return rewriter.create<mlir::ge::ConstantOp>(
      loc, DenseElementsAttr::get(type, APInt(8, 0)));
}

/// The values of an integer constant (int8/uint8/int32) as int64.
std::optional<SmallVector<int64_t>> getIntConstant(Value v) {
  ElementsAttr value;
  if (!v || !matchPattern(v, m_Constant(&value)))
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(value.getElementType());
  if (!intType || !value.getShapedType().hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> out;
  for (APInt i : value.getValues<APInt>())
    out.push_back(intType.isUnsigned() ? int64_t(i.getZExtValue())
                                       : i.getSExtValue());
  return out;
}

/// A bias's float values: a float constant, or a DequantizeLinear of an
/// int32 constant (a bias in QDQ form) per tensor or per element.
std::optional<SmallVector<float>> biasValues(Value bias) {
  if (std::optional<FloatConstant> c = getFloatConstant(bias))
    return c->values;
  auto dq = bias.getDefiningOp<DequantizeLinearOp>();
  if (!dq)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> q = getIntConstant(dq.getX());
  std::optional<FloatConstant> scale = getFloatConstant(dq.getXScale());
  std::optional<SmallVector<int64_t>> zp =
      dq.getXZeroPoint() ? getIntConstant(dq.getXZeroPoint())
                         : SmallVector<int64_t>{0};
  if (!q || !scale || !zp ||
      (scale->values.size() != 1 && scale->values.size() != q->size()) ||
      (zp->size() != 1 && zp->size() != q->size()))
    return std::nullopt;
  SmallVector<float> out;
  for (size_t i = 0; i < q->size(); ++i)
    out.push_back(static_cast<float>((*q)[i] - (*zp)[zp->size() == 1 ? 0 : i]) *
                  scale->values[scale->values.size() == 1 ? 0 : i]);
  return out;
}

/// B as int32 at scale x_scale * w_scale[m], rounded half to even.
std::optional<Value> quantizedBias(PatternRewriter &rewriter, Location loc,
                                   Value bias, Value xScale, Value wScale,
                                   int64_t channels) {
  std::optional<SmallVector<float>> b = biasValues(bias);
  std::optional<FloatConstant> xs = getFloatConstant(xScale);
  std::optional<FloatConstant> ws = getFloatConstant(wScale);
  if (!b || !xs || !ws || static_cast<int64_t>(b->size()) != channels)
    return std::nullopt;
  SmallVector<int32_t> q;
  for (int64_t m = 0; m < channels; ++m) {
    float s = xs->values[0] * ws->values[ws->values.size() == 1 ? 0 : m];
    double v = std::nearbyint(static_cast<double>((*b)[m]) / s);
    if (!(std::abs(v) < double(std::numeric_limits<int32_t>::max())))
      return std::nullopt;
    q.push_back(static_cast<int32_t>(v));
  }
  auto type = RankedTensorType::get({channels}, rewriter.getI32Type());
  return rewriter
      .create<mlir::ge::ConstantOp>(
          loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(q)))
      .getResult();
}

/// Whether `q`'s output zero point is 0 (absent, or a constant of zeros).
bool zeroPointIsZero(QuantizeLinearOp q) {
  if (!q.getYZeroPoint())
    return true;
  std::optional<SmallVector<int64_t>> zp = getIntConstant(q.getYZeroPoint());
  return zp && llvm::all_of(*zp, [](int64_t v) { return v == 0; });
}

/// The float cube op of kind Op that `q` quantizes, and the ReLU between
/// them if there is one; each intermediate value has `q`'s chain as its only
/// user and the output parameters are per tensor. A ReLU is looked through
/// only with output zero point 0, where quantizing commutes with it.
template <typename Op>
std::pair<Op, mlir::ge::ReluOp> quantizedCube(QuantizeLinearOp q) {
  if (elementCount(q.getYScale()) != 1)
    return {};
  Value input = q.getX();
  auto relu = input.getDefiningOp<mlir::ge::ReluOp>();
  if (relu) {
    if (soleUser(relu.getY()) != q || !zeroPointIsZero(q))
      return {};
    input = relu.getX();
  }
  auto cube = input.getDefiningOp<Op>();
  Operation *user = relu ? relu.getOperation() : q.getOperation();
  if (!cube || soleUser(cube.getResult()) != user)
    return {};
  return {cube, relu};
}

/// Builds `name` in place of `q` with `operands`, the cube's attributes and
/// q's result type. A ReLU before q becomes the saturation itself (uint8 at
/// zero point 0) or a ReLU of the int8 result.
void replaceWithQuantizedCube(PatternRewriter &rewriter, QuantizeLinearOp q,
                              Operation *cube, mlir::ge::ReluOp relu,
                              StringRef name, ValueRange operands,
                              Location loc) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(q.getY().getType());
  // The quantized ops take conv's and matmul's attributes but NCHW only.
  for (NamedAttribute attr : cube->getAttrs())
    if (attr.getName() != "data_format")
      state.addAttribute(attr.getName(), attr.getValue());
  Value result = rewriter.create(state)->getResult(0);
  if (relu && !elementType(result).isUnsignedInteger())
    result = rewriter.create<mlir::ge::ReluOp>(relu.getLoc(), result.getType(),
                                               result);
  rewriter.replaceOp(q, result);
  if (relu)
    rewriter.eraseOp(relu);
  rewriter.eraseOp(cube);
}

/// The qlinear cube op's operands in ONNX order: each input's int8 tensor,
/// scale and zero point (a constant 0 when absent), then the output's.
SmallVector<Value, 9> qlinearOperands(PatternRewriter &rewriter, Location loc,
                                      const Dequantized &a,
                                      const Dequantized &b,
                                      QuantizeLinearOp q) {
  return {a.q,
          a.scale,
          zeroPointOr(rewriter, loc, a.zeroPoint, elementType(a.q)),
          b.q,
          b.scale,
          zeroPointOr(rewriter, loc, b.zeroPoint, elementType(b.q)),
          q.getYScale(),
          zeroPointOr(rewriter, loc, q.getYZeroPoint(), elementType(q.getY()))};
}

struct FoldQdqIntoQLinearConv : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [conv, relu] = quantizedCube<mlir::ge::ConvOp>(q);
    if (!conv)
      return rewriter.notifyMatchFailure(q, "not a quantized conv's output");
    std::optional<Dequantized> x = dequantized(conv.getX());
    std::optional<Dequantized> w = dequantized(conv.getW());
    int64_t channels =
        cast<RankedTensorType>(conv.getW().getType()).getDimSize(0);
    if (!x || !w || elementCount(x->scale) != 1 ||
        !perTensorOrAxis(*w, 0, channels))
      return rewriter.notifyMatchFailure(q,
                                         "operands are not int8 in QDQ form");
    Location loc = fusedLoc(conv, q);
    SmallVector<Value, 9> operands = qlinearOperands(rewriter, loc, *x, *w, q);
    if (Value bias = conv.getB()) {
      std::optional<Value> b =
          quantizedBias(rewriter, loc, bias, x->scale, w->scale, channels);
      if (!b)
        return rewriter.notifyMatchFailure(q, "bias or scales not constant");
      operands.push_back(*b);
    }
    replaceWithQuantizedCube(rewriter, q, conv, relu, "ge.qlinear_conv",
                             operands, loc);
    return success();
  }
};

struct FoldQdqIntoQLinearMatMul : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto [matmul, relu] = quantizedCube<mlir::ge::MatMulOp>(q);
    if (!matmul)
      return rewriter.notifyMatchFailure(q, "not a quantized matmul's output");
    std::optional<Dequantized> a = dequantized(matmul.getA());
    std::optional<Dequantized> b = dequantized(matmul.getB());
    auto bType = cast<RankedTensorType>(matmul.getB().getType());
    bool perColumnOk =
        b &&
        (elementCount(b->scale) == 1 ||
         (bType.getRank() == 2 && perTensorOrAxis(*b, 1, bType.getDimSize(1))));
    if (!a || !perColumnOk || elementCount(a->scale) != 1)
      return rewriter.notifyMatchFailure(q,
                                         "operands are not int8 in QDQ form");
    Location loc = fusedLoc(matmul, q);
    SmallVector<Value, 9> operands = qlinearOperands(rewriter, loc, *a, *b, q);
    replaceWithQuantizedCube(rewriter, q, matmul, relu, "ge.qlinear_matmul",
                             operands, loc);
    return success();
  }
};

/// Two scale or zero-point operands that quantize alike: the same value, or
/// constants with equal elements (both absent for zero points).
bool sameParam(Value a, Value b) {
  if (a == b)
    return true;
  if (!a || !b)
    return false;
  if (std::optional<FloatConstant> fa = getFloatConstant(a))
    if (std::optional<FloatConstant> fb = getFloatConstant(b))
      return fa->shape == fb->shape && fa->values == fb->values;
  std::optional<SmallVector<int64_t>> ia = getIntConstant(a),
                                      ib = getIntConstant(b);
  return ia && ib && *ia == *ib && elementCount(a) == elementCount(b) &&
         elementType(a) == elementType(b);
}

/// q(move(dq(x))) with the same scale and zero point on both sides, where
/// `move` only moves elements (reshape, flatten, squeeze, unsqueeze,
/// transpose): the move runs on the int8 tensor itself, as GE keeps
/// quantized data quantized between cube ops.
struct RunDataMovementOnInt8 : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    Operation *move = q.getX().getDefiningOp();
    if (!move ||
        !isa<mlir::ge::ReshapeOp, mlir::ge::FlattenOp, mlir::ge::SqueezeOp,
             mlir::ge::UnsqueezeOp, mlir::ge::TransposeOp>(move) ||
        soleUser(move->getResult(0)) != q)
      return rewriter.notifyMatchFailure(q, "not a data movement's output");
    auto dq = move->getOperand(0).getDefiningOp<DequantizeLinearOp>();
    if (!dq || elementCount(dq.getXScale()) != 1 ||
        elementCount(q.getYScale()) != 1 ||
        elementType(dq.getX()) != elementType(q.getY()) ||
        !sameParam(dq.getXScale(), q.getYScale()) ||
        !sameParam(dq.getXZeroPoint(), q.getYZeroPoint()))
      return rewriter.notifyMatchFailure(q, "not the same quantization");
    Operation *moved = rewriter.clone(*move);
    moved->setOperand(0, dq.getX());
    moved->getResult(0).setType(q.getY().getType());
    rewriter.replaceOp(q, moved->getResults());
    rewriter.eraseOp(move);
    return success();
  }
};

struct FoldQdqPass : impl::FoldQdqBase<FoldQdqPass> {
  using FoldQdqBase::FoldQdqBase;

  void runOnOperation() override {
    applyFusionPatterns<FoldQdqIntoQLinearConv, FoldQdqIntoQLinearMatMul,
                        RunDataMovementOnInt8>(getOperation());
  }
};

} // namespace
} // namespace geflow::passes
