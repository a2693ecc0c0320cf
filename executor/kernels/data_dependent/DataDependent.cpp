//===- DataDependent.cpp - Dispatch and shared checks of the third class --===//
//
// The four ops are looked up by OpDef type; each op's bounds and run live in
// a file of its own (DataDependentOps.h). They are registered with the kernel
// registry for their plan only: the compiler and the simulator see an AICPU
// task of one block whose cost is that of its upper bound, while
// createKernel refuses them, since a Kernel cannot tell its consumers the
// real shape it wrote; they run through runDataDependent instead.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/data_dependent/DataDependent.h"
#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/data_dependent/DataDependentOps.h"
#include "executor/kernels/support/KernelSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::dd;

namespace {

struct OpEntry {
  const char *type;
  BoundsFn bounds;
  RunFn run;
};

const OpEntry kOps[] = {
    {"non_zero", nonZeroBounds, runNonZero},
    {"non_max_suppression", nmsBounds, runNms},
    {"unique", uniqueBounds, runUnique},
    {"compress", compressBounds, runCompress},
};

const OpEntry *findOp(const std::string &type) {
  for (const OpEntry &e : kOps)
    if (type == e.type)
      return &e;
  return nullptr;
}

rt::Status notDataDependent(const om::OpDef &op) {
  return opError(op, "not a data-dependent op");
}

/// Worst-case work of the op on its bounds: one pass over the input for the
/// selections, a comparison sort of the slices for unique, a sort of each
/// class's scores plus an IOU of every pair of boxes for NMS.
double worstFlops(const om::OpDef &op) {
  double n = static_cast<double>(numElements(op.input_desc(0)));
  const std::string &type = op.type();
  if (type == "unique") {
    double rows = static_cast<double>(numElements(op.output_desc(1)));
    return n * std::log2(rows + 1);
  }
  if (type == "non_max_suppression") {
    const om::TensorDescriptor &scores = op.input_desc(1);
    double candidates = static_cast<double>(numElements(scores));
    double boxes = static_cast<double>(scores.shape(2));
    // Each candidate is sorted and compared with every box (an IOU is about
    // ten FLOPs).
    return candidates * (std::log2(boxes + 1) + 10 * boxes);
  }
  return n;
}

rt::Status noKernelObject(const KernelSpec &spec, std::unique_ptr<Kernel> *) {
  return opError(*spec.op, "its output shape depends on its input values; "
                           "it runs through kernels::runDataDependent");
}

} // namespace

bool kernels::isDataDependent(const std::string &type) {
  return findOp(type) != nullptr;
}

rt::Status kernels::upperBoundShapes(om::OpDef *op) {
  const OpEntry *e = findOp(op->type());
  return e ? e->bounds(op) : notDataDependent(*op);
}

rt::Status
kernels::runDataDependent(const om::OpDef &op, const TensorView *inputs,
                          const TensorView *outputs,
                          std::vector<std::vector<int64_t>> *shapes) {
  const OpEntry *e = findOp(op.type());
  if (!e)
    return notDataDependent(op);
  // The bounds' checks are the operands' checks; the op's own output
  // descriptors are left as the caller declared them.
  om::OpDef checked = op;
  GEFLOW_RT_RETURN_IF_ERROR(e->bounds(&checked));
  for (int i = 0; i < op.input_desc_size(); ++i)
    if (vec::hasInput(op, i) && !inputs[i].data &&
        numElements(op.input_desc(i)))
      return opError(op, "input " + std::to_string(i) + " has no buffer");
  shapes->clear();
  return e->run(op, inputs, outputs, shapes);
}

rt::Status kernels::planDataDependent(const om::OpDef &op, KernelPlan *out) {
  om::OpDef bounded = op;
  GEFLOW_RT_RETURN_IF_ERROR(upperBoundShapes(&bounded));
  out->engine = rt::Engine::kAiCpu;
  out->maxBlocks = 1;
  out->cost.flops = worstFlops(bounded);
  out->cost.bytes = vec::ioBytes(bounded);
  return rt::Status::ok();
}

void kernels::registerDataDependentKernels(KernelRegistry &registry) {
  for (const OpEntry &e : kOps)
    registry.add(e.type, KernelEntry{planDataDependent, noKernelObject});
}

// --- shared checks -----------------------------------------------------------

int64_t dd::elementsOf(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string dd::shapeText(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

rt::Status dd::inputShape(const om::OpDef &op, int i, Shape *shape,
                          bool optional, bool *present) {
  bool has = vec::hasInput(op, i);
  if (present)
    *present = has;
  shape->clear();
  if (!has)
    return optional ? rt::Status::ok()
                    : opError(op, "input " + std::to_string(i) + " is missing");
  const om::TensorDescriptor &desc = op.input_desc(i);
  // Bytes of the largest element, so that byte counts cannot overflow either.
  int64_t limit = std::numeric_limits<int64_t>::max() / 16, n = 1;
  for (int64_t d : desc.shape()) {
    if (d < 0)
      return opError(op, "input " + std::to_string(i) + " has an unknown dim");
    if (d && n > limit / d)
      return opError(op, "input " + std::to_string(i) + " is too large");
    n *= d;
    shape->push_back(d);
  }
  return rt::Status::ok();
}

Shape dd::SliceLayout::keep(Shape x, int64_t kept) const {
  if (!hasAxis)
    return {kept};
  x[axis] = kept;
  return x;
}

rt::Status dd::sliceLayout(const om::OpDef &op, const Shape &x,
                           SliceLayout *out) {
  out->hasAxis = hasAttr(op, "axis");
  if (!out->hasAxis) {
    out->l = vec::AxisLayout{};
    out->l.n = elementsOf(x);
    return rt::Status::ok();
  }
  int64_t rank = static_cast<int64_t>(x.size()), given = attrInt(op, "axis", 0);
  out->axis = vec::normalizeAxis(given, rank);
  if (out->axis < 0 || out->axis >= rank)
    return opError(op, "axis " + std::to_string(given) +
                           " is out of range for rank " + std::to_string(rank));
  return vec::axisLayout(op, op.input_desc(0), out->axis, &out->l);
}

void dd::copySlices(const vec::AxisLayout &l, size_t elemSize,
                    const std::vector<int64_t> &picks, const void *in,
                    void *out) {
  size_t slice = static_cast<size_t>(l.inner) * elemSize;
  int64_t k = static_cast<int64_t>(picks.size());
  const auto *src = static_cast<const uint8_t *>(in);
  auto *dst = static_cast<uint8_t *>(out);
  for (int64_t o = 0; slice && o < l.outer; ++o)
    for (int64_t j = 0; j < k; ++j)
      std::memcpy(dst + (o * k + j) * slice, src + (o * l.n + picks[j]) * slice,
                  slice);
}

rt::Status dd::setOutput(om::OpDef *op, int k, om::DataType dtype,
                         const Shape &shape) {
  int64_t bytes = static_cast<int64_t>(dtypeSize(dtype));
  for (int64_t d : shape)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return opError(*op, "output " + std::to_string(k) + " bound " +
                              shapeText(shape) + " is too large");
  while (op->output_desc_size() <= k)
    op->add_output_desc();
  om::TensorDescriptor *desc = op->mutable_output_desc(k);
  desc->set_dtype(dtype);
  desc->clear_shape();
  for (int64_t d : shape)
    desc->add_shape(d);
  desc->set_layout("ND");
  desc->set_size(bytes);
  return rt::Status::ok();
}

rt::Status dd::checkFits(const om::OpDef &op, const TensorView *outputs, int k,
                         const Shape &shape) {
  if (k >= op.output_desc_size())
    return opError(op, "output " + std::to_string(k) + " is missing");
  const om::TensorDescriptor &bound =
      outputs[k].desc ? *outputs[k].desc : op.output_desc(k);
  int64_t need = elementsOf(shape);
  if (need > numElements(bound))
    return opError(op, "output " + std::to_string(k) + " needs " +
                           shapeText(shape) + ", over its upper bound " +
                           shapeText(shapeOf(bound)));
  if (need && !outputs[k].data)
    return opError(op, "output " + std::to_string(k) + " has no buffer");
  return rt::Status::ok();
}
