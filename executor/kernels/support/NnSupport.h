//===- NnSupport.h - what the NN kernel families share ---------*- C++ -*-===//
//
// The pieces Conv, Pool, Gemm and Norm have in common: one row-major GEMM entry
// point on Eigen (NnGemm.cpp, one body per instruction set), the sliding-window
// geometry of ONNX's conv and pool ops (auto_pad, pads, strides, dilations)
// normalised to three spatial dims, per-thread scratch, and float32 checks.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_SUPPORT_NNSUPPORT_H
#define GEFLOW_EXECUTOR_KERNELS_SUPPORT_NNSUPPORT_H

#include "executor/kernels/support/KernelSupport.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace geflow::kernels::nn {

/// C[MxN] = alpha * op(A) * op(B) + beta * C, all row-major with leading
/// dimensions lda/ldb/ldc; op(A) is MxK (A is KxM when transA), op(B) is KxN
/// (B is NxK when transB). beta == 0 ignores C's previous contents.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
          float beta, float *c, int64_t ldc);

/// A sliding window over up to three spatial dims. Ops of spatial rank r < 3
/// are stored right-aligned with leading unit dims (in = out = kernel = 1), so
/// one loop nest serves 1-D, 2-D and 3-D.
struct Window {
  int rank = 0; // the op's spatial rank (1..3)
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t padBegin[3] = {0, 0, 0};
  int64_t padEnd[3] = {0, 0, 0};

  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
  int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
};

/// The output columns [lo, hi) of window column tap `kw` whose input column
/// j * stride + offW is inside [0, in[2]).
struct TapColumns {
  int64_t offW, lo, hi;
};
TapColumns tapColumns(const Window &w, int64_t kw);

/// One output plane of a depthwise conv (one input plane, 1-D or 2-D, `w`'s
/// depth 1): out = bias + taps (*) plane, then per output row the residual
/// (same layout as out; may be null) added and `act` applied while the row
/// is in L1. 3x3 windows with unit dilation and W stride 1 or 2 (MobileNet's)
/// keep each output in a register over its nine taps; others add strided
/// rows tap by tap.
/// `planes`: w's phase planes (ConvTaps.h) when TapPlanes applies to it,
/// built once by the caller, else null.
struct Activation;
class TapPlanes;
void depthwisePlane(const Window &w, const TapPlanes *planes,
                    const float *plane, const float *taps, float bias,
                    const float *residual, const Activation &act, float *out);

/// Fills `w` from the op's auto_pad / pads / strides / dilations (dilations
/// only when `useDilations`) for input spatial dims `in`, output spatial dims
/// `out` (the output descriptor's, which the compiler inferred) and `kernel`.
rt::Status resolveWindow(const om::OpDef &op, const std::vector<int64_t> &in,
                         const std::vector<int64_t> &out,
                         const std::vector<int64_t> &kernel, bool useDilations,
                         Window *w);

/// A per-thread buffer of at least `count` floats, 64-byte aligned, reused
/// across calls on the same host thread; `slot` tells apart buffers a kernel
/// needs at once.
float *scratch(size_t count, int slot = 0);

/// True when input `i` exists and is not an absent optional input.
/// The batch part of a matmul's operands A [..., m, k] and B [..., k, n]
/// (numpy broadcasting of the leading dims, a zero dim making an empty batch)
/// and where each batch entry's A and B matrices start.
struct MatMulBatch {
  int64_t m = 0, k = 0, n = 0;
  /// The broadcast batch dims of A, B and the result, right-aligned.
  std::vector<int64_t> aDims, bDims, outDims;
  int64_t batch = 1, aBatch = 1, bBatch = 1;
  /// Element offsets of entry i's A and B matrices.
  std::vector<int64_t> aOffset, bOffset;
};

/// Splits shapes `a` and `b` (rank >= 2 each; promote vectors first) into
/// matrices and a broadcast batch, and checks the result's element count.
rt::Status analyzeMatMulBatch(const om::OpDef &op,
                              const std::vector<int64_t> &a,
                              const std::vector<int64_t> &b, MatMulBatch *out);

bool hasInput(const om::OpDef &op, int i);

/// An error naming the op unless every present input and output is float32
/// (outputs listed in `except` may have other dtypes, e.g. max_pool Indices).
rt::Status requireFloat(const om::OpDef &op, int exceptOutput = -1);

/// The trailing activation of a fused cube op (fused_conv, fused_gemm,
/// fused_matmul): `activation` names the ONNX op, `activation_params` its float
/// attributes in ONNX order (leaky_relu [alpha], clip [min, max], hard_sigmoid
/// [alpha, beta]); missing params take ONNX's defaults. gelu is ONNX Gelu's
/// exact erf form, gelu_tanh its approximate = "tanh" form.
struct Activation {
  /// A kind per elementwise op of the op table and per form (kRelu,
  /// kHardSwish, kGeluTanh, ...); parseActivation admits the ones the table
  /// marks as activations (Act >= 0).
  enum Kind {
    kNone,
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  k##Onnx,
#define GE_FORM(Form, FormOnnx, Name) k##FormOnnx,
#include "ir/GeOpTable.def"
  };
  Kind kind = kNone;
  float a = 0, b = 0;
};
rt::Status parseActivation(const om::OpDef &op, Activation *out);
/// Applies `act` in place to `n` contiguous floats.
void applyActivation(const Activation &act, float *data, int64_t n);
/// Adds `bias` to `n` contiguous floats and applies `act`, in one pass over
/// them for the cheap activations (none, relu, clip).
void applyBiasActivation(const Activation &act, float bias, float *data,
                         int64_t n);
/// The same from `src` into `dst` (n floats each; the same or not
/// overlapping): a copy and the epilogue in one pass.
void applyBiasActivation(const Activation &act, float bias, const float *src,
                         float *dst, int64_t n);

/// maxBlocks for `items` equal work items of `flopsPerItem` each: every block
/// carries at least kMinBlockFlops so it is worth a launch.
inline constexpr double kMinBlockFlops = 1 << 18;
uint32_t blocksForFlops(int64_t items, double flopsPerItem);
/// The same for memory-bound vector work: a block is worth a launch when it
/// does kMinBlockFlops or moves kMinBlockBytes (about a launch latency of one
/// vector core's share of HBM bandwidth), whichever comes first.
inline constexpr double kMinBlockBytes = 32 << 10;
uint32_t blocksForVectorWork(int64_t items, double flopsPerItem,
                             double bytesPerItem);

/// The create function of kernel K, built from the Plan that `Analyze` derives
/// from the op: the plan function runs the same analysis, so both agree.
template <class K, class Plan, rt::Status (*Analyze)(const om::OpDef &, Plan *)>
rt::Status createFromPlan(const KernelSpec &spec,
                          std::unique_ptr<Kernel> *out) {
  Plan p;
  GEFLOW_RT_RETURN_IF_ERROR(Analyze(*spec.op, &p));
  *out = std::make_unique<K>(std::move(p));
  return rt::Status::ok();
}

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_SUPPORT_NNSUPPORT_H
