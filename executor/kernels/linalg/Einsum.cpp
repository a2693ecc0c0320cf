//===- Einsum.cpp - the einsum equations ge-lower-einsum leaves -----------===//
//
// ge-lower-einsum turns the equations that are a batched matmul, a
// transpose or a sum into those ops; this kernel computes the rest (a
// diagonal, three or more operands, broadcast ellipsis dims) directly.
//
// Block split: output elements, contiguous per block, each block worth
// kGrain multiply-adds at least. Cost: per output element, one multiply per
// operand and one add for every point of the summed labels' index space.
// Computation: each operand's offset is a sum over labels of index * stride,
// where a label repeated in one operand adds its dims' strides (that is the
// diagonal) and a broadcast dim of size 1 has stride 0. The summed labels
// are walked with an odometer, the innermost in a tight loop.
//
//===----------------------------------------------------------------------===//

#include "ir/EinsumEquation.h"

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// An index space of `dims` and, per operand, the stride of each dim.
struct LabelSpace {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides; // [operand][dim]
};

struct EinsumPlan {
  LabelSpace out, sum;
  int64_t sumCount = 1;
};

using EinsumFn = void (*)(const EinsumPlan &p, const void *const *in, void *out,
                          int64_t begin, int64_t end);

template <class T>
void einsumRange(const EinsumPlan &p, const void *const *inV, void *outV,
                 int64_t begin, int64_t end) {
  const size_t n = p.out.strides.size();
  const int sumRank = static_cast<int>(p.sum.dims.size());
  std::vector<int64_t> base(n), off(n), idx(sumRank);
  auto *out = static_cast<T *>(outV);
  for (int64_t e = begin; e < end; ++e) {
    std::fill(base.begin(), base.end(), 0);
    for (int64_t d = static_cast<int64_t>(p.out.dims.size()) - 1, rest = e;
         d >= 0; --d) {
      int64_t i = rest % p.out.dims[d];
      rest /= p.out.dims[d];
      for (size_t k = 0; k < n; ++k)
        base[k] += i * p.out.strides[k][d];
    }
    T acc = T(0);
    std::fill(idx.begin(), idx.end(), 0);
    off = base;
    for (int64_t done = 0; done < p.sumCount; ++done) {
      T prod = static_cast<const T *>(inV[0])[off[0]];
      for (size_t k = 1; k < n; ++k)
        prod *= static_cast<const T *>(inV[k])[off[k]];
      acc += prod;
      // Odometer step over the summed labels, keeping `off` in step.
      for (int d = sumRank - 1; d >= 0; --d) {
        for (size_t k = 0; k < n; ++k)
          off[k] += p.sum.strides[k][d];
        if (++idx[d] < p.sum.dims[d])
          break;
        for (size_t k = 0; k < n; ++k)
          off[k] -= idx[d] * p.sum.strides[k][d];
        idx[d] = 0;
      }
    }
    out[e] = acc;
  }
}

class EinsumKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<EinsumKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<EinsumKernel>(new EinsumKernel);
    om::DataType dt = op.output_desc(0).dtype();
    if (!dispatch(NumericTypes{}, dt, [&](auto tag) {
          k->fn_ = &einsumRange<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    std::vector<std::vector<int64_t>> shapes;
    for (int i = 0; i < op.input_desc_size(); ++i) {
      if (op.input_desc(i).dtype() != dt)
        return opError(op, "operands and output must share one dtype");
      shapes.push_back(shapeOf(op.input_desc(i)));
    }
    einsum::Equation eq;
    std::string why;
    if (!einsum::parseEquation(attrString(op, "equation", ""), shapes, &eq,
                               &why))
      return opError(op, why);
    if (eq.outputShape() != shapeOf(op.output_desc(0)))
      return opError(op, "output shape does not match the equation");
    k->einsum_ = planFor(eq, shapes);
    for (int i = 0; i < op.input_desc_size(); ++i)
      k->constants_.push_back(constantInput(spec, i));
    int64_t elems = numElements(op.output_desc(0));
    double perElement = static_cast<double>(k->einsum_.sumCount) *
                        static_cast<double>(shapes.size());
    int64_t grain = std::max<int64_t>(
        1, kGrain / std::max<int64_t>(1, k->einsum_.sumCount));
    k->setPlan(op, elems, grain, perElement * static_cast<double>(elems));
    *out = std::move(k);
    return rt::Status::ok();
  }

protected:
  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    std::vector<const void *> in;
    for (size_t i = 0; i < constants_.size(); ++i)
      in.push_back(operandData(constants_[i], inputs, static_cast<int>(i)));
    fn_(einsum_, in.data(), outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  static EinsumPlan planFor(const einsum::Equation &eq,
                            const std::vector<std::vector<int64_t>> &shapes) {
    const size_t labels = eq.sizes.size();
    // Per operand, each label's stride: the sum over its dims (a diagonal
    // when repeated), 0 where the dim is a broadcast 1.
    std::vector<std::vector<int64_t>> labelStride(
        shapes.size(), std::vector<int64_t>(labels, 0));
    for (size_t k = 0; k < shapes.size(); ++k) {
      std::vector<int64_t> strides = stridesOf(shapes[k]);
      for (size_t d = 0; d < shapes[k].size(); ++d)
        if (shapes[k][d] != 1)
          labelStride[k][eq.inputs[k][d]] += strides[d];
    }
    auto space = [&](const std::vector<int> &which) {
      LabelSpace s;
      s.strides.resize(shapes.size());
      for (int label : which) {
        s.dims.push_back(eq.sizes[label]);
        for (size_t k = 0; k < shapes.size(); ++k)
          s.strides[k].push_back(labelStride[k][label]);
      }
      return s;
    };
    EinsumPlan p;
    p.out = space(eq.output);
    p.sum = space(eq.summedLabels());
    p.sumCount = product(p.sum.dims);
    return p;
  }

  EinsumPlan einsum_;
  EinsumFn fn_ = nullptr;
  std::vector<const void *> constants_;
};

} // namespace

namespace geflow::kernels {
void registerEinsumKernels(KernelRegistry &registry) {
  registry.serve("EinsumKernel", entryFor<EinsumKernel>());
}
} // namespace geflow::kernels
