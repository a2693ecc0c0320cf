//===- IndexOps.cpp - verifiers of indexing and layout ops ------*- C++ -*-===//
//
// The ops of GeIndexOps.td. Each verifier checks ranks and attributes, then
// the result shape from the operand shapes (and shape-like constants where
// ONNX takes them as operands: OneHot's depth, MaxUnpool's output_shape).
// Unknown dims (kDynamic) are compatible with anything. Also ScatterND's
// folder, for the constant scatters of exported shape computations.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
int64_t rankOf(Value v) { return shapeOf(v).size(); }
bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
bool dimsAgree(int64_t a, int64_t b) { return isDyn(a) || isDyn(b) || a == b; }

/// `a` and `b` have the same rank and compatible dims.
bool shapesAgree(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!dimsAgree(x, y))
      return false;
  return true;
}

LogicalResult verifyRankAtLeast(Operation *op, StringRef name, Value v,
                                int64_t minRank) {
  if (rankOf(v) < minRank)
    return op->emitOpError()
           << "operand '" << name << "' has rank " << rankOf(v)
           << " but must have rank >= " << minRank;
  return success();
}

LogicalResult verifyRankIs(Operation *op, StringRef name, Value v,
                           int64_t rank) {
  if (rankOf(v) != rank)
    return op->emitOpError() << "operand '" << name << "' has rank "
                             << rankOf(v) << " but must have rank " << rank;
  return success();
}

LogicalResult verifyOneOf(Operation *op, StringRef name, StringRef value,
                          ArrayRef<StringRef> allowed) {
  if (llvm::is_contained(allowed, value))
    return success();
  auto diag = op->emitOpError() << "attribute '" << name << "' is \"" << value
                                << "\" but must be one of ";
  llvm::interleaveComma(allowed, diag);
  return diag;
}

LogicalResult verifyReduction(Operation *op, StringRef reduction) {
  return verifyOneOf(op, "reduction", reduction,
                     {"none", "add", "mul", "max", "min"});
}

LogicalResult verifyPositive(Operation *op, StringRef name, int64_t value) {
  if (value < 1)
    return op->emitOpError()
           << "attribute '" << name << "' is " << value << " but must be >= 1";
  return success();
}

/// GatherND and ScatterND: the last dim of `indices` (the index depth m)
/// must lie in [1, rank(data) - batchDims]; kDynamic when unknown.
FailureOr<int64_t> indexDepth(Operation *op, Value data, Value indices,
                              int64_t batchDims) {
  if (failed(verifyRankAtLeast(op, "data", data, 1)) ||
      failed(verifyRankAtLeast(op, "indices", indices, 1)))
    return failure();
  int64_t m = shapeOf(indices).back();
  int64_t limit = rankOf(data) - batchDims;
  if (!isDyn(m) && (m < 1 || m > limit))
    return op->emitOpError()
           << "the last dim of 'indices' is " << m << " but must be in [1, "
           << limit << "] (rank of 'data' minus batch_dims)";
  return m;
}

} // namespace

LogicalResult GatherElementsOp::verify() {
  if (failed(verifyRankAtLeast(*this, "data", getData(), 1)) ||
      failed(verifyRankIs(*this, "indices", getIndices(), rankOf(getData()))) ||
      failed(verifyAxisAttr(*this, "axis", getAxis(), rankOf(getData()))))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getIndices()));
}

LogicalResult ScatterElementsOp::verify() {
  int64_t rank = rankOf(getData());
  if (failed(verifyRankAtLeast(*this, "data", getData(), 1)) ||
      failed(verifyRankIs(*this, "indices", getIndices(), rank)) ||
      failed(verifyAxisAttr(*this, "axis", getAxis(), rank)) ||
      failed(verifyReduction(*this, getReduction())))
    return failure();
  if (!shapesAgree(shapeOf(getIndices()), shapeOf(getUpdates())))
    return emitOpError() << "operand 'updates' has shape "
                         << formatShape(shapeOf(getUpdates()))
                         << " but 'indices' has "
                         << formatShape(shapeOf(getIndices()));
  return verifyResultShape(*this, 0, shapeOf(getData()));
}

LogicalResult GatherNDOp::verify() {
  int64_t b = getBatchDims();
  ArrayRef<int64_t> data = shapeOf(getData()), indices = shapeOf(getIndices());
  if (b < 0 || b >= (int64_t)std::min(data.size(), indices.size()))
    return emitOpError() << "attribute 'batch_dims' is " << b
                         << " but must be in [0, min(rank of 'data', rank of "
                            "'indices'))";
  FailureOr<int64_t> m = indexDepth(*this, getData(), getIndices(), b);
  if (failed(m))
    return failure();
  for (int64_t d = 0; d < b; ++d)
    if (!dimsAgree(data[d], indices[d]))
      return emitOpError() << "batch dim " << d << " is " << data[d]
                           << " in 'data' but " << indices[d]
                           << " in 'indices'";
  if (isDyn(*m)) {
    int64_t rank = getOutput().getType().getRank();
    int64_t maxRank = indices.size() - 1 + data.size() - b - 1;
    if (rank > maxRank)
      return emitOpError() << "result has rank " << rank << " but at most "
                           << maxRank << " is possible";
    return success();
  }
  Shape out(indices.begin(), indices.end() - 1);
  out.append(data.begin() + b + *m, data.end());
  return verifyResultShape(*this, 0, out);
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyReduction(*this, getReduction())))
    return failure();
  FailureOr<int64_t> m = indexDepth(*this, getData(), getIndices(), 0);
  if (failed(m))
    return failure();
  ArrayRef<int64_t> data = shapeOf(getData()), indices = shapeOf(getIndices());
  if (!isDyn(*m)) {
    Shape updates(indices.begin(), indices.end() - 1);
    updates.append(data.begin() + *m, data.end());
    if (!shapesAgree(shapeOf(getUpdates()), updates))
      return emitOpError() << "operand 'updates' has shape "
                           << formatShape(shapeOf(getUpdates()))
                           << " but expected " << formatShape(updates)
                           << " (indices.shape[:-1] + data.shape[m:])";
  }
  return verifyResultShape(*this, 0, data);
}

LogicalResult OneHotOp::verify() {
  if (failed(verifyScalarOperand(*this, "depth", getDepth())) ||
      failed(verifyRankIs(*this, "values", getValues(), 1)))
    return failure();
  int64_t numValues = shapeOf(getValues())[0];
  if (!isDyn(numValues) && numValues != 2)
    return emitOpError() << "operand 'values' has " << numValues
                         << " elements but must hold [off_value, on_value]";
  ArrayRef<int64_t> indices = shapeOf(getIndices());
  int64_t outRank = indices.size() + 1;
  FailureOr<int64_t> axis = normalizeAxis(getAxis(), outRank);
  if (failed(axis))
    return emitOpError() << "attribute 'axis' is " << getAxis()
                         << " but the output has rank " << outRank
                         << " (allowed range [" << -outRank << ", " << outRank
                         << "))";
  int64_t depth = kDynamic;
  DenseElementsAttr attr;
  if (matchPattern(getDepth(), m_Constant(&attr)) && attr.getNumElements()) {
    // ONNX casts a float depth to int64.
    depth =
        isa<FloatType>(attr.getElementType())
            ? (int64_t)(*attr.getValues<APFloat>().begin()).convertToDouble()
            : (*attr.getValues<APInt>().begin()).getSExtValue();
    if (depth < 1)
      return emitOpError() << "depth is " << depth << " but must be >= 1";
  }
  Shape out(indices.begin(), indices.end());
  out.insert(out.begin() + *axis, depth);
  return verifyResultShape(*this, 0, out);
}

LogicalResult MaxUnpoolOp::verify() {
  if (failed(verifyRankAtLeast(*this, "X", getX(), 3)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX());
  size_t spatial = x.size() - 2;
  ArrayRef<int64_t> kernel = getKernelShape();
  SmallVector<int64_t> pads(getPads().value_or(ArrayRef<int64_t>()));
  SmallVector<int64_t> strides(getStrides().value_or(ArrayRef<int64_t>()));
  if (pads.empty())
    pads.assign(2 * spatial, 0);
  if (strides.empty())
    strides.assign(spatial, 1);
  if (kernel.size() != spatial || pads.size() != 2 * spatial ||
      strides.size() != spatial)
    return emitOpError() << "needs " << spatial
                         << " kernel_shape and strides values and "
                         << 2 * spatial << " pads for input 'X' of rank "
                         << x.size();
  for (size_t i = 0; i < spatial; ++i)
    if (kernel[i] < 1 || strides[i] < 1 || pads[i] < 0 || pads[i + spatial] < 0)
      return emitOpError() << "kernel_shape and strides must be >= 1 and "
                              "pads >= 0";
  if (!shapesAgree(shapeOf(getI()), x))
    return emitOpError() << "operand 'I' has shape "
                         << formatShape(shapeOf(getI())) << " but 'X' has "
                         << formatShape(x);
  if (Value given = getOutputShape()) {
    if (failed(verifyRankIs(*this, "output_shape", given, 1)))
      return failure();
    if (std::optional<SmallVector<int64_t>> dims = getConstantInts(given))
      return verifyResultShape(*this, 0, *dims);
    return verifyResultShape(*this, 0, Shape(x.size(), kDynamic));
  }
  // The inverse of pooling: (in - 1) * stride + kernel - pads.
  Shape out(x.begin(), x.begin() + 2);
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = x[i + 2];
    out.push_back(isDyn(in) ? kDynamic
                            : (in - 1) * strides[i] + kernel[i] - pads[i] -
                                  pads[i + spatial]);
  }
  return verifyResultShape(*this, 0, out);
}

LogicalResult GridSampleOp::verify() {
  if (failed(verifyFlagAttr(*this, "align_corners", getAlignCorners())) ||
      failed(verifyOneOf(*this, "mode", getMode(),
                         {"bilinear", "nearest", "bicubic"})) ||
      failed(verifyOneOf(*this, "padding_mode", getPaddingMode(),
                         {"zeros", "border", "reflection"})) ||
      failed(verifyRankIs(*this, "X", getX(), 4)) ||
      failed(verifyRankIs(*this, "grid", getGrid(), 4)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX()), grid = shapeOf(getGrid());
  if (!dimsAgree(grid[3], 2) || !dimsAgree(grid[0], x[0]))
    return emitOpError() << "operand 'grid' has shape " << formatShape(grid)
                         << " but expected [N, H_out, W_out, 2] with N = "
                         << x[0];
  return verifyResultShape(*this, 0, {x[0], x[1], grid[1], grid[2]});
}

LogicalResult RoiAlignOp::verify() {
  if (failed(verifyOneOf(*this, "mode", getMode(), {"avg", "max"})) ||
      failed(verifyOneOf(*this, "coordinate_transformation_mode",
                         getCoordinateTransformationMode(),
                         {"half_pixel", "output_half_pixel"})) ||
      failed(verifyPositive(*this, "output_height", getOutputHeight())) ||
      failed(verifyPositive(*this, "output_width", getOutputWidth())) ||
      failed(verifyRankIs(*this, "X", getX(), 4)) ||
      failed(verifyRankIs(*this, "rois", getRois(), 2)) ||
      failed(verifyRankIs(*this, "batch_indices", getBatchIndices(), 1)))
    return failure();
  if (getSamplingRatio() < 0)
    return emitOpError() << "attribute 'sampling_ratio' is "
                         << getSamplingRatio() << " but must be >= 0";
  ArrayRef<int64_t> x = shapeOf(getX()), rois = shapeOf(getRois());
  int64_t numRois = rois[0];
  if (!dimsAgree(rois[1], 4))
    return emitOpError() << "operand 'rois' has shape " << formatShape(rois)
                         << " but expected [num_rois, 4]";
  if (!dimsAgree(shapeOf(getBatchIndices())[0], numRois))
    return emitOpError() << "operand 'batch_indices' has "
                         << shapeOf(getBatchIndices())[0]
                         << " entries but there are " << numRois << " rois";
  return verifyResultShape(
      *this, 0, {numRois, x[1], getOutputHeight(), getOutputWidth()});
}

/// [N, C, H, W] -> [N, C / b^2, H * b, W * b] or its inverse.
static LogicalResult verifySpaceDepth(Operation *op, Value input,
                                      int64_t blocksize, bool toSpace) {
  if (failed(verifyPositive(op, "blocksize", blocksize)) ||
      failed(verifyRankIs(op, "input", input, 4)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  // The block's area and every dim it can grow must fit in int64.
  int64_t area = 0, grown = 0;
  auto overflows = [&](int64_t d, int64_t f) {
    return !isDyn(d) && llvm::MulOverflow(d, f, grown);
  };
  if (llvm::MulOverflow(blocksize, blocksize, area) || overflows(x[1], area) ||
      overflows(x[2], blocksize) || overflows(x[3], blocksize))
    return op->emitOpError() << "attribute 'blocksize' is " << blocksize
                             << ", too large for the input";
  auto mul = [](int64_t d, int64_t f) { return isDyn(d) ? kDynamic : d * f; };
  auto div = [](int64_t d, int64_t f) { return isDyn(d) ? kDynamic : d / f; };
  if (toSpace) {
    if (!isDyn(x[1]) && x[1] % area != 0)
      return op->emitOpError()
             << "input has " << x[1]
             << " channels, not a multiple of blocksize^2 = " << area;
    return verifyResultShape(
        op, 0,
        {x[0], div(x[1], area), mul(x[2], blocksize), mul(x[3], blocksize)});
  }
  for (int d : {2, 3})
    if (!isDyn(x[d]) && x[d] % blocksize != 0)
      return op->emitOpError() << "input dim " << d << " is " << x[d]
                               << ", not a multiple of blocksize " << blocksize;
  return verifyResultShape(
      op, 0,
      {x[0], mul(x[1], area), div(x[2], blocksize), div(x[3], blocksize)});
}

LogicalResult DepthToSpaceOp::verify() {
  if (failed(verifyOneOf(*this, "mode", getMode(), {"DCR", "CRD"})))
    return failure();
  return verifySpaceDepth(*this, getInput(), getBlocksize(), true);
}

LogicalResult SpaceToDepthOp::verify() {
  return verifySpaceDepth(*this, getInput(), getBlocksize(), false);
}

LogicalResult TriluOp::verify() {
  if (failed(verifyFlagAttr(*this, "upper", getUpper())) ||
      failed(verifyRankAtLeast(*this, "input", getInput(), 2)) ||
      failed(verifyScalarOperand(*this, "k", getK())))
    return failure();
  return success();
}

LogicalResult EyeLikeOp::verify() {
  if (failed(verifyRankIs(*this, "input", getInput(), 2)))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getInput()));
}

LogicalResult ReverseSequenceOp::verify() {
  if (failed(verifyRankAtLeast(*this, "input", getInput(), 2)) ||
      failed(verifyRankIs(*this, "sequence_lens", getSequenceLens(), 1)))
    return failure();
  int64_t batch = getBatchAxis(), time = getTimeAxis();
  if (!((batch == 0 && time == 1) || (batch == 1 && time == 0)))
    return emitOpError() << "attributes 'batch_axis' = " << batch
                         << " and 'time_axis' = " << time
                         << " must be 0 and 1 in some order";
  int64_t batchSize = shapeOf(getInput())[batch],
          lens = shapeOf(getSequenceLens())[0];
  if (!dimsAgree(batchSize, lens))
    return emitOpError() << "operand 'sequence_lens' has " << lens
                         << " entries but the batch axis has " << batchSize;
  return success();
}

//===----------------------------------------------------------------------===//
// Folder
//===----------------------------------------------------------------------===//

/// Exported shape computations (Swin's attention masks) write constant slices
/// with ScatterND; folding them lets the rest of the chain fold too. Only
/// plain assignment (reduction none) folds, the form exporters write; the
/// size limit keeps folding from blowing up a model.
OpFoldResult ScatterNDOp::fold(FoldAdaptor adaptor) {
  constexpr int64_t kMaxFoldElements = 1 << 16;
  auto data = dyn_cast_or_null<DenseElementsAttr>(adaptor.getData());
  auto indices = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  auto updates = dyn_cast_or_null<DenseElementsAttr>(adaptor.getUpdates());
  auto type = dyn_cast<RankedTensorType>(getType());
  if (!data || !indices || !updates || getReduction() != "none" || !type ||
      !type.hasStaticShape() || type.getNumElements() > kMaxFoldElements ||
      data.getType() != type)
    return {};
  ArrayRef<int64_t> shape = type.getShape();
  int64_t m = indices.getType().getShape().back();
  int64_t slice = numElements(shape.drop_front(m));
  SmallVector<Attribute> out(data.getValues<Attribute>());
  SmallVector<Attribute> upd(updates.getValues<Attribute>());
  SmallVector<int64_t> idx;
  for (const APInt &i : indices.getValues<APInt>())
    idx.push_back(i.getSExtValue());
  int64_t numSlices = m ? (int64_t)idx.size() / m : 0;
  if ((int64_t)upd.size() != numSlices * slice)
    return {};
  for (int64_t s = 0; s < numSlices; ++s) {
    int64_t offset = 0;
    for (int64_t d = 0; d < m; ++d) {
      int64_t i = idx[s * m + d];
      if (i < 0)
        i += shape[d];
      if (i < 0 || i >= shape[d])
        return {};
      offset = offset * shape[d] + i;
    }
    std::copy_n(upd.begin() + s * slice, slice, out.begin() + offset * slice);
  }
  return DenseElementsAttr::get(type, out);
}
