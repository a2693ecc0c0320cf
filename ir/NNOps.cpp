//===- NNOps.cpp - verifiers of neural-network ge ops -----------*- C++ -*-===//

#include "ir/ChannelBlocks.h"
#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"
#include "ir/OpFacts.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// `v` must be 1-D with `size` entries (when both are known); `what` names it.
static LogicalResult verifyVector(Operation *op, StringRef what, Value v,
                                  int64_t size, StringRef sizeName) {
  if (!v)
    return success();
  ArrayRef<int64_t> shape = shapeOf(v);
  if (shape.size() != 1)
    return op->emitOpError() << "input '" << what << "' has shape "
                             << formatShape(shape) << " but must be 1-D";
  if (!isDyn(shape[0]) && !isDyn(size) && shape[0] != size)
    return op->emitOpError() << "input '" << what << "' has " << shape[0]
                             << " elements but " << sizeName << " is " << size;
  return success();
}

/// Whether `small` broadcasts to exactly `big` (ONNX unidirectional).
static bool broadcastsTo(ArrayRef<int64_t> small, ArrayRef<int64_t> big) {
  FailureOr<Shape> b = broadcastShapes(big, small);
  if (failed(b) || b->size() != big.size())
    return false;
  for (auto [x, y] : llvm::zip(*b, big))
    if (!isDyn(y) && x != y)
      return false;
  return true;
}

static LogicalResult verifyInputRank(Operation *op, StringRef opType,
                                     StringRef name, Value v, int64_t minRank) {
  int64_t rank = shapeOf(v).size();
  if (rank < minRank)
    return op->emitOpError()
           << "input '" << name << "' has rank " << rank << " but " << opType
           << " needs rank >= " << minRank;
  return success();
}

static ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> a) {
  return a.value_or(ArrayRef<int64_t>());
}

/// `format` must be NCHW or NC1HWC0; for NC1HWC0, X ([N, C1, H, W, 16])
/// must be static and rank 5. Sets `blocked`.
static LogicalResult verifyDataFormat(Operation *op, StringRef format, Value x,
                                      bool *blocked) {
  *blocked = format == kBlockedFormat;
  if (!*blocked && format != kPlainFormat)
    return op->emitOpError() << "data_format \"" << format << "\" is not "
                             << kPlainFormat << " or " << kBlockedFormat;
  ArrayRef<int64_t> shape = shapeOf(x);
  if (*blocked && (shape.size() != 5 || shape[4] != kChannelBlock ||
                   llvm::any_of(shape, isDyn)))
    return op->emitOpError()
           << "input 'X' has shape " << formatShape(shape) << " but "
           << kBlockedFormat << " needs a static [N, C1, H, W, "
           << kChannelBlock << "]";
  return success();
}

/// ge.conv and ge.fused_conv. In NC1HWC0, X's channels C are W[1] * group
/// (X has their blocks only), and the kernels take one group or one channel
/// per group.
template <typename ConvLikeOp>
static LogicalResult verifyConvLike(ConvLikeOp op) {
  bool blocked = false;
  if (failed(verifyDataFormat(op, op.getDataFormat(), op.getX(), &blocked)) ||
      failed(verifyInputRank(op, "Conv", "X", op.getX(), 3)))
    return failure();
  WindowParams params{orEmpty(op.getKernelShape()),
                      orEmpty(op.getStrides()),
                      orEmpty(op.getPads()),
                      orEmpty(op.getDilations()),
                      op.getAutoPad(),
                      false};
  Shape x(shapeOf(op.getX()));
  ArrayRef<int64_t> w = shapeOf(op.getW());
  if (blocked) {
    const int64_t channels = w.size() == 4 ? w[1] * op.getGroup() : -1;
    if (channels < 0 || x[1] != blockedShape({1, channels, 1, 1})[1] ||
        (op.getGroup() != 1 && (w[1] != 1 || w[0] != channels)))
      return op.emitOpError()
             << "in " << kBlockedFormat << " input 'X' " << formatShape(x)
             << " and weight 'W' " << formatShape(w)
             << " must be a 2-D conv of one group or one channel per group";
    x = {x[0], channels, x[2], x[3]};
  }
  std::string why;
  FailureOr<Shape> shape = convOutputShape(x, w, op.getGroup(), params, &why);
  if (failed(shape))
    return op.emitOpError() << why;
  if (failed(verifyVector(op, "B", op.getB(), shapeOf(op.getW())[0],
                          "the output channel count W[0]")))
    return failure();
  return verifyResultShape(op, 0, blocked ? blockedShape(*shape) : *shape);
}

LogicalResult ConvOp::verify() { return verifyConvLike(*this); }

LogicalResult ConvTransposeOp::verify() {
  if (failed(verifyInputRank(*this, "ConvTranspose", "X", getX(), 3)))
    return failure();
  WindowParams params{
      orEmpty(getKernelShape()), orEmpty(getStrides()), orEmpty(getPads()),
      orEmpty(getDilations()),   getAutoPad(),          false};
  std::string why;
  FailureOr<Shape> shape = convTransposeOutputShape(
      shapeOf(getX()), shapeOf(getW()), getGroup(), params,
      orEmpty(getOutputPadding()), orEmpty(getOutputShape()), &why);
  if (failed(shape))
    return emitOpError() << why;
  if (failed(verifyVector(*this, "B", getB(), (*shape)[1],
                          "the output channel count W[1] * group")))
    return failure();
  return verifyResultShape(*this, 0, *shape);
}

/// A pool's output shape for X as the verifier sees it: in NC1HWC0
/// (`blocked`), that of [N, C1, H, W] with the 16 lanes put back.
static FailureOr<Shape>
poolShape(Value x, bool blocked, const WindowParams &params, std::string *why) {
  Shape in(shapeOf(x));
  if (blocked)
    in.pop_back();
  FailureOr<Shape> out = poolOutputShape(in, params, why);
  if (succeeded(out) && blocked)
    out->push_back(kChannelBlock);
  return out;
}

LogicalResult AveragePoolOp::verify() {
  bool blocked = false;
  if (failed(verifyDataFormat(*this, getDataFormat(), getX(), &blocked)) ||
      failed(verifyInputRank(*this, "AveragePool", "X", getX(), 3)) ||
      failed(verifyFlagAttr(*this, "ceil_mode", getCeilMode())) ||
      failed(verifyFlagAttr(*this, "count_include_pad", getCountIncludePad())))
    return failure();
  WindowParams params{getKernelShape(),   orEmpty(getStrides()),
                      orEmpty(getPads()), {},
                      getAutoPad(),       getCeilMode() != 0};
  std::string why;
  FailureOr<Shape> shape = poolShape(getX(), blocked, params, &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult MaxPoolOp::verify() {
  bool blocked = false;
  if (failed(verifyDataFormat(*this, getDataFormat(), getX(), &blocked)) ||
      failed(verifyInputRank(*this, "MaxPool", "X", getX(), 3)) ||
      failed(verifyFlagAttr(*this, "ceil_mode", getCeilMode())) ||
      failed(verifyFlagAttr(*this, "storage_order", getStorageOrder())))
    return failure();
  WindowParams params{getKernelShape(),   orEmpty(getStrides()),
                      orEmpty(getPads()), orEmpty(getDilations()),
                      getAutoPad(),       getCeilMode() != 0};
  std::string why;
  FailureOr<Shape> shape = poolShape(getX(), blocked, params, &why);
  if (failed(shape))
    return emitOpError() << why;
  if (failed(verifyResultShape(*this, 0, *shape)))
    return failure();
  if (blocked && getIndices())
    return emitOpError() << "takes no Indices in " << kBlockedFormat;
  return getIndices() ? verifyResultShape(*this, 1, *shape) : success();
}

namespace {
/// Indices cost max_pool a search of every window after its max; a model
/// that never reads them (every CNN stem) should not pay for it.
struct DropUnusedMaxPoolIndices : OpRewritePattern<MaxPoolOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPoolOp op,
                                PatternRewriter &rewriter) const override {
    Value indices = op.getIndices();
    if (!indices || !indices.use_empty())
      return failure();
    auto pool =
        rewriter.create<MaxPoolOp>(op.getLoc(), TypeRange{op.getY().getType()},
                                   op->getOperands(), op->getAttrs());
    rewriter.replaceOp(op, {pool.getY(), Value()});
    return success();
  }
};
} // namespace

void MaxPoolOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<DropUnusedMaxPoolIndices>(context);
}

/// In NC1HWC0 (`blocked`), X is [N, C1, H, W, 16] and Y [N, C1, 1, 1, 16].
static LogicalResult verifyGlobalPool(Operation *op, StringRef opType,
                                      bool blocked = false) {
  Value x = op->getOperand(0);
  if (failed(verifyInputRank(op, opType, "X", x, 3)))
    return failure();
  ArrayRef<int64_t> in = shapeOf(x);
  Shape out{in[0], in[1]};
  out.append(in.size() - 2 - (blocked ? 1 : 0), 1);
  if (blocked)
    out.push_back(kChannelBlock);
  return verifyResultShape(op, 0, out);
}

LogicalResult GlobalAveragePoolOp::verify() {
  bool blocked = false;
  if (failed(verifyDataFormat(*this, getDataFormat(), getX(), &blocked)))
    return failure();
  return verifyGlobalPool(*this, "GlobalAveragePool", blocked);
}
LogicalResult GlobalMaxPoolOp::verify() {
  return verifyGlobalPool(*this, "GlobalMaxPool");
}

LogicalResult BatchNormalizationOp::verify() {
  if (getTrainingMode() != 0)
    return emitOpError() << "attribute 'training_mode' is "
                         << static_cast<int64_t>(getTrainingMode())
                         << " but only inference (0) is supported";
  if (failed(verifyInputRank(*this, "BatchNormalization", "X", getX(), 2)))
    return failure();
  int64_t channels = shapeOf(getX())[1];
  for (auto [name, v] : {std::pair<StringRef, Value>{"scale", getScale()},
                         {"B", getB()},
                         {"input_mean", getInputMean()},
                         {"input_var", getInputVar()}})
    if (failed(
            verifyVector(*this, name, v, channels, "the channel count X[1]")))
      return failure();
  return verifyResultShape(*this, 0, shapeOf(getX()));
}

LogicalResult InstanceNormalizationOp::verify() {
  if (failed(verifyInputRank(*this, "InstanceNormalization", "input",
                             getInput(), 3)))
    return failure();
  int64_t channels = shapeOf(getInput())[1];
  if (failed(verifyVector(*this, "scale", getScale(), channels,
                          "the channel count input[1]")) ||
      failed(verifyVector(*this, "B", getB(), channels,
                          "the channel count input[1]")))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getInput()));
}

LogicalResult LayerNormalizationOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getX());
  if (failed(verifyAxisAttr(*this, "axis", getAxis(), x.size())))
    return failure();
  ArrayRef<int64_t> normalized =
      x.drop_front(*normalizeAxis(getAxis(), x.size()));
  for (auto [name, v] :
       {std::pair<StringRef, Value>{"Scale", getScale()}, {"B", getB()}})
    if (v && !broadcastsTo(shapeOf(v), normalized))
      return emitOpError()
             << "input '" << name << "' has shape " << formatShape(shapeOf(v))
             << " which does not broadcast to the normalised dims "
             << formatShape(normalized);
  if (!getStatistics().empty() && getStatistics().size() != 2)
    return emitOpError()
           << "has " << 1 + getStatistics().size()
           << " results but LayerNormalization has 1 (Y) or 3 (Y, Mean, "
              "InvStdDev)";
  // Mean and InvStdDev keep the leading dims and reduce the normalised ones
  // to 1.
  Shape statistics(x.begin(), x.end());
  std::fill(statistics.end() - normalized.size(), statistics.end(), 1);
  for (unsigned i = 1; i < getNumResults(); ++i)
    if (failed(verifyResultShape(*this, i, statistics)))
      return failure();
  return verifyResultShape(*this, 0, x);
}

/// ge.gemm and ge.fused_gemm.
template <typename GemmLikeOp>
static LogicalResult verifyGemmLike(GemmLikeOp op) {
  if (failed(verifyFlagAttr(op, "transA", op.getTransA())) ||
      failed(verifyFlagAttr(op, "transB", op.getTransB())))
    return failure();
  std::string why;
  FailureOr<Shape> shape = gemmShape(shapeOf(op.getA()), shapeOf(op.getB()),
                                     op.getTransA(), op.getTransB(), &why);
  if (failed(shape))
    return op.emitOpError() << why;
  if (Value c = op.getC(); c && !broadcastsTo(shapeOf(c), *shape))
    return op.emitOpError()
           << "input 'C' has shape " << formatShape(shapeOf(c))
           << " which does not broadcast to [M, N] = " << formatShape(*shape);
  return verifyResultShape(op, 0, *shape);
}

LogicalResult GemmOp::verify() { return verifyGemmLike(*this); }

LogicalResult MatMulOp::verify() {
  std::string why;
  FailureOr<Shape> shape = matmulShape(shapeOf(getA()), shapeOf(getB()), &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult ArgMaxOp::verify() {
  return verifyArgReduceOp(*this, getAxis(), getKeepdims(),
                           getSelectLastIndex());
}

LogicalResult TopKOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getX());
  if (x.empty())
    return emitOpError() << "input 'X' must have rank >= 1";
  if (failed(verifyAxisAttr(*this, "axis", getAxis(), x.size())) ||
      failed(verifyFlagAttr(*this, "largest", getLargest())) ||
      failed(verifyFlagAttr(*this, "sorted", getSorted())))
    return failure();
  ArrayRef<int64_t> kShape = shapeOf(getK());
  if (kShape.size() != 1 || (!isDyn(kShape[0]) && kShape[0] != 1))
    return emitOpError() << "input 'K' has shape " << formatShape(kShape)
                         << " but must be a 1-D tensor of one element";
  int64_t axis = *normalizeAxis(getAxis(), x.size());
  Shape out(x.begin(), x.end());
  out[axis] = kDynamic;
  if (std::optional<SmallVector<int64_t>> k = getConstantInts(getK())) {
    int64_t kv = (*k)[0];
    if (kv < 0 || (!isDyn(x[axis]) && kv > x[axis]))
      return emitOpError() << "K = " << kv << " is out of range for axis "
                           << axis << " of size " << x[axis];
    out[axis] = kv;
  }
  if (failed(verifyResultShape(*this, 0, out)))
    return failure();
  return verifyResultShape(*this, 1, out);
}

LogicalResult ReduceSumOp::verify() {
  if (failed(verifyFlagAttr(*this, "keepdims", getKeepdims())) ||
      failed(verifyFlagAttr(*this, "noop_with_empty_axes",
                            getNoopWithEmptyAxes())))
    return failure();
  if (!getAxes())
    return verifyReduceOp(*this, std::nullopt, getKeepdims(),
                          getNoopWithEmptyAxes());
  if (failed(verifyRank1Operand(*this, "axes", getAxes())))
    return failure();
  if (std::optional<SmallVector<int64_t>> axes = getConstantInts(getAxes()))
    return verifyReduceOp(*this, ArrayRef<int64_t>(*axes), getKeepdims(),
                          getNoopWithEmptyAxes());
  if (getKeepdims() &&
      getReduced().getType().getRank() != getData().getType().getRank())
    return emitOpError()
           << "result must keep the input's rank with keepdims = 1";
  return success();
}

//===----------------------------------------------------------------------===//
// Fused ops
//===----------------------------------------------------------------------===//

/// `activation` must be one the fused kernels know, with its parameter count.
static LogicalResult verifyActivation(Operation *op, StringRef activation,
                                      std::optional<ArrayRef<float>> params) {
  std::optional<unsigned> expected = activationParamCount(activation);
  if (!expected)
    return op->emitOpError() << "activation \"" << activation
                             << "\" is not one of " << activationNames();
  // Trailing params may be left out; they take ONNX's defaults.
  int64_t given = params ? params->size() : 0;
  if (given > static_cast<int64_t>(*expected))
    return op->emitOpError()
           << "activation \"" << activation << "\" takes at most " << *expected
           << " activation_params but has " << given;
  return success();
}

LogicalResult FusedConvOp::verify() {
  if (failed(verifyActivation(*this, getActivation(), getActivationParams())) ||
      failed(verifyConvLike(*this)))
    return failure();
  // The residual is added element by element: no broadcasting.
  if (Value z = getZ(); z && z.getType() != getY().getType())
    return emitOpError() << "input 'Z' has shape " << formatShape(shapeOf(z))
                         << " but the residual must have Y's shape "
                         << formatShape(shapeOf(getY()));
  return success();
}

LogicalResult FusedGemmOp::verify() {
  if (failed(verifyActivation(*this, getActivation(), getActivationParams())))
    return failure();
  return verifyGemmLike(*this);
}

LogicalResult FusedMatMulOp::verify() {
  if (failed(verifyActivation(*this, getActivation(), getActivationParams())))
    return failure();
  std::string why;
  FailureOr<Shape> shape = matmulShape(shapeOf(getA()), shapeOf(getB()), &why);
  if (failed(shape))
    return emitOpError() << why;
  if (Value bias = getBias(); bias && !broadcastsTo(shapeOf(bias), *shape))
    return emitOpError() << "input 'bias' has shape "
                         << formatShape(shapeOf(bias))
                         << " which does not broadcast to the product's shape "
                         << formatShape(*shape);
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult TransDataOp::verify() {
  auto x = cast<RankedTensorType>(getX().getType());
  auto y = cast<RankedTensorType>(getY().getType());
  const bool toBlocked =
      getSrcFormat() == kPlainFormat && getDstFormat() == kBlockedFormat;
  if (!toBlocked &&
      !(getSrcFormat() == kBlockedFormat && getDstFormat() == kPlainFormat))
    return emitOpError() << "converts " << kPlainFormat << " to "
                         << kBlockedFormat << " or back, not \""
                         << getSrcFormat() << "\" to \"" << getDstFormat()
                         << "\"";
  RankedTensorType plain = toBlocked ? x : y, blocked = toBlocked ? y : x;
  if (plain.getRank() != 4 || !plain.hasStaticShape())
    return emitOpError() << "needs a static 4-D " << kPlainFormat
                         << " tensor, not " << formatShape(plain.getShape());
  if (blocked.getShape() != ArrayRef<int64_t>(blockedShape(plain.getShape())))
    return emitOpError() << kPlainFormat << " " << formatShape(plain.getShape())
                         << " is " << kBlockedFormat << " "
                         << formatShape(blockedShape(plain.getShape()))
                         << ", not " << formatShape(blocked.getShape());
  return success();
}
