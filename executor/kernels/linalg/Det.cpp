//===- Det.cpp - det ------------------------------------------------------===//
//
// Block split: the [M, M] matrices of an [*, M, M] input, contiguous per
// block, each block worth >= 4096 input elements. Cost: an LU factorisation,
// 2/3 M^3 FLOPs per matrix; bytes = inputs read + outputs written.
// Computation: Eigen's determinant on a row-major map of each matrix (a
// partial-pivoting LU beyond 4 x 4, closed forms below).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/LU>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

using DetFn = void (*)(int64_t m, const void *in, void *out, int64_t begin,
                       int64_t end);

template <class T>
void detRun(int64_t m, const void *inV, void *outV, int64_t begin,
            int64_t end) {
  using Matrix =
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  for (int64_t i = begin; i < end; ++i)
    out[i] = m == 0
                 ? T(1)
                 : Eigen::Map<const Matrix>(in + i * m * m, m, m).determinant();
}

class DetKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<DetKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<DetKernel>(new DetKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, dt,
                  [&](auto tag) {
                    k->fn_ = &detRun<typename decltype(tag)::type>;
                  }) ||
        op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    std::vector<int64_t> x = shapeOf(op.input_desc(0));
    if (x.size() < 2 || x[x.size() - 1] != x[x.size() - 2])
      return opError(op, "X must be [*, M, M]");
    k->m_ = x.back();
    const int64_t matrices =
        product(std::vector<int64_t>(x.begin(), x.end() - 2));
    if (numElements(op.output_desc(0)) != matrices)
      return opError(op, "Y must have one element per matrix");
    const double m = static_cast<double>(k->m_);
    k->setPlan(
        op, matrices,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->m_ * k->m_)),
        static_cast<double>(matrices) * (2.0 / 3.0) * m * m * m);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    fn_(m_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  DetKernel() = default;
  DetFn fn_ = nullptr;
  int64_t m_ = 0;
};

} // namespace

void geflow::kernels::registerDetKernels(KernelRegistry &registry) {
  registry.serve("DetKernel", entryFor<DetKernel>());
}
