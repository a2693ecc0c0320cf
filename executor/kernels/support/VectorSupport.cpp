//===- VectorSupport.cpp
//----------------------------------------------------===//

#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

using AllScalarTypes =
    TypeList<float, double, Eigen::half, int8_t, int16_t, int32_t, int64_t,
             uint8_t, uint16_t, uint32_t, uint64_t, bool>;

double vec::loadAsDouble(const void *data, om::DataType dt, int64_t index) {
  double v = 0;
  dispatch(AllScalarTypes{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    v = static_cast<double>(static_cast<const T *>(data)[index]);
  });
  return v;
}

int64_t vec::loadAsInt(const void *data, om::DataType dt, int64_t index) {
  int64_t v = 0;
  dispatch(AllScalarTypes{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Eigen::half>)
      v = static_cast<int64_t>(
          static_cast<float>(static_cast<const T *>(data)[index]));
    else
      v = static_cast<int64_t>(static_cast<const T *>(data)[index]);
  });
  return v;
}

std::vector<int64_t> vec::loadInts(const void *data,
                                   const om::TensorDescriptor &desc) {
  std::vector<int64_t> out(numElements(desc));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = loadAsInt(data, desc.dtype(), static_cast<int64_t>(i));
  return out;
}

std::vector<double> vec::loadDoubles(const void *data,
                                     const om::TensorDescriptor &desc) {
  std::vector<double> out(numElements(desc));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = loadAsDouble(data, desc.dtype(), static_cast<int64_t>(i));
  return out;
}

bool vec::hasInput(const om::OpDef &op, int i) {
  return i < op.input_desc_size() &&
         op.input_desc(i).dtype() != om::DT_UNDEFINED;
}

const void *vec::constantInput(const KernelSpec &spec, int i) {
  return i < static_cast<int>(spec.constantInputs.size())
             ? spec.constantInputs[i]
             : nullptr;
}

int64_t vec::normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> vec::stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

int64_t vec::product(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

double vec::ioBytes(const om::OpDef &op) {
  double bytes = 0;
  for (const auto &d : op.input_desc())
    bytes += static_cast<double>(numElements(d)) * dtypeSize(d.dtype());
  for (const auto &d : op.output_desc())
    bytes += static_cast<double>(numElements(d)) * dtypeSize(d.dtype());
  return bytes;
}

// --- Broadcast
// -------------------------------------------------------------------

void Broadcast::offsetsAt(int64_t pos, int64_t *offs) const {
  for (int k = 0; k < numOperands_; ++k)
    offs[k] = 0;
  for (int d = static_cast<int>(dims_.size()) - 1; d >= 0 && pos; --d) {
    const int64_t idx = pos % dims_[d];
    pos /= dims_[d];
    for (int k = 0; k < numOperands_; ++k)
      offs[k] += idx * strides_[d][k];
  }
}

int64_t Broadcast::periodicSpan(int k) const {
  const size_t rank = dims_.size();
  if (rank < 2 || strides_[rank - 1][k] != 1 || strides_[rank - 2][k] != 0)
    return 0;
  for (int j = 0; j < numOperands_; ++j)
    if (j != k && (strides_[rank - 1][j] != 1 ||
                   strides_[rank - 2][j] != dims_[rank - 1]))
      return 0;
  return dims_[rank - 2] * dims_[rank - 1];
}

Broadcast::Broadcast(const std::vector<int64_t> &outShape,
                     const std::vector<std::vector<int64_t>> &inShapes)
    : numOperands_(static_cast<int>(inShapes.size())),
      total_(product(outShape)) {
  const size_t rank = outShape.size();
  // Per output dim, each operand's element stride (0 where it broadcasts);
  // unit output dims are dropped.
  std::vector<int64_t> dims;
  std::vector<std::array<int64_t, kMaxOperands>> strides;
  std::vector<std::vector<int64_t>> inStrides;
  for (const auto &s : inShapes)
    inStrides.push_back(stridesOf(s));
  for (size_t d = 0; d < rank; ++d) {
    if (outShape[d] == 1)
      continue;
    std::array<int64_t, kMaxOperands> st{};
    for (int k = 0; k < numOperands_; ++k) {
      const auto &s = inShapes[k];
      int64_t kd =
          static_cast<int64_t>(d) - static_cast<int64_t>(rank - s.size());
      st[k] = (kd < 0 || s[kd] == 1) ? 0 : inStrides[k][kd];
    }
    // Merge into the previous dim when every operand continues it.
    if (!dims.empty()) {
      bool merge = true;
      for (int k = 0; k < numOperands_; ++k)
        merge &= strides.back()[k] == st[k] * outShape[d];
      if (merge) {
        dims.back() *= outShape[d];
        strides.back() = st;
        continue;
      }
    }
    dims.push_back(outShape[d]);
    strides.push_back(st);
  }
  if (dims.empty()) {
    dims.push_back(1);
    strides.push_back({});
  }
  dims_ = std::move(dims);
  strides_ = std::move(strides);
}

// --- IndexMap
// --------------------------------------------------------------------

void IndexMap::simplify() {
  std::vector<int64_t> d2;
  std::vector<std::vector<int64_t>> o2;
  bool fillAll = false;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) {
      if (offsets[d][0] <= kFill / 2)
        fillAll = true;
      else
        base += offsets[d][0];
      continue;
    }
    d2.push_back(dims[d]);
    o2.push_back(std::move(offsets[d]));
  }
  if (fillAll)
    base = kFill;
  if (d2.empty()) {
    d2.push_back(1);
    o2.push_back({0});
  }
  dims = std::move(d2);
  offsets = std::move(o2);
}

template <class U>
static void copyRow(const U *in, U *out, const int64_t *inner, int64_t base,
                    int64_t len, const U *fill) {
  for (int64_t j = 0; j < len; ++j) {
    int64_t off = base + inner[j];
    out[j] = off < 0 ? *fill : in[off];
  }
}

template <class U> static void fillRow(U *out, int64_t len, const U *fill) {
  std::fill(out, out + len, *fill);
}

void IndexMap::copy(size_t elemSize, const void *in, void *out,
                    const void *fill, int64_t begin, int64_t end) const {
  const int rank = static_cast<int>(dims.size());
  const int64_t inner = dims.back();
  const std::vector<int64_t> &innerOff = offsets.back();
  // Whether the inner table is a contiguous run with no fill.
  bool contiguous = innerOff[0] >= 0;
  for (int64_t j = 1; j < inner && contiguous; ++j)
    contiguous = innerOff[j] == innerOff[0] + j;
  auto *src = static_cast<const char *>(in);
  auto *dst = static_cast<char *>(out);
  for (int64_t pos = begin; pos < end;) {
    int64_t row = pos / inner, j = pos % inner;
    int64_t len = std::min(inner - j, end - pos);
    int64_t off = base, rest = row;
    for (int d = rank - 2; d >= 0; --d) {
      off += offsets[d][rest % dims[d]];
      rest /= dims[d];
    }
    char *o = dst + pos * elemSize;
    if (off < 0 && off <= kFill / 2) {
      switch (elemSize) {
      case 1:
        fillRow(reinterpret_cast<uint8_t *>(o), len,
                static_cast<const uint8_t *>(fill));
        break;
      case 2:
        fillRow(reinterpret_cast<uint16_t *>(o), len,
                static_cast<const uint16_t *>(fill));
        break;
      case 4:
        fillRow(reinterpret_cast<uint32_t *>(o), len,
                static_cast<const uint32_t *>(fill));
        break;
      default:
        fillRow(reinterpret_cast<uint64_t *>(o), len,
                static_cast<const uint64_t *>(fill));
        break;
      }
    } else if (contiguous) {
      std::memcpy(o, src + (off + innerOff[0] + j) * elemSize, len * elemSize);
    } else {
      const int64_t *io = innerOff.data() + j;
      switch (elemSize) {
      case 1:
        copyRow(reinterpret_cast<const uint8_t *>(src),
                reinterpret_cast<uint8_t *>(o), io, off, len,
                static_cast<const uint8_t *>(fill));
        break;
      case 2:
        copyRow(reinterpret_cast<const uint16_t *>(src),
                reinterpret_cast<uint16_t *>(o), io, off, len,
                static_cast<const uint16_t *>(fill));
        break;
      case 4:
        copyRow(reinterpret_cast<const uint32_t *>(src),
                reinterpret_cast<uint32_t *>(o), io, off, len,
                static_cast<const uint32_t *>(fill));
        break;
      default:
        copyRow(reinterpret_cast<const uint64_t *>(src),
                reinterpret_cast<uint64_t *>(o), io, off, len,
                static_cast<const uint64_t *>(fill));
        break;
      }
    }
    pos += len;
  }
}

// --- one axis ----------------------------------------------------------------

rt::Status vec::axisLayout(const om::OpDef &op,
                           const om::TensorDescriptor &desc, int64_t axis,
                           AxisLayout *out) {
  auto shape = shapeOf(desc);
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t a = normalizeAxis(axis, rank);
  if (rank == 0) {
    *out = AxisLayout{};
    return rt::Status::ok();
  }
  if (a < 0 || a >= rank)
    return opError(op, "axis " + std::to_string(axis) + " is out of range");
  AxisLayout l;
  for (int64_t d = 0; d < a; ++d)
    l.outer *= shape[d];
  l.n = shape[a];
  for (int64_t d = a + 1; d < rank; ++d)
    l.inner *= shape[d];
  *out = l;
  return rt::Status::ok();
}

// --- glue
// ----------------------------------------------------------------------

rt::Status VectorKernel::run(const TensorView *inputs,
                             const TensorView *outputs, uint32_t blockIdx,
                             uint32_t blockDim) const {
  BlockRange r = blockRange(work_, blockIdx, blockDim);
  if (r.begin >= r.end)
    return rt::Status::ok();
  return runRange(inputs, outputs, r);
}

rt::Status VectorKernel::runRange(const TensorView *, const TensorView *,
                                  BlockRange) const {
  return rt::makeStatus(rt::StatusCode::kInternal,
                        "vector kernel overrides neither run nor runRange");
}

void VectorKernel::setPlan(const om::OpDef &op, int64_t work, int64_t grain,
                           double flops, double bytes) {
  work_ = work;
  plan_.engine = rt::Engine::kAiv;
  plan_.maxBlocks = blocksForWork(work, grain);
  plan_.cost.flops = flops;
  plan_.cost.bytes = bytes >= 0 ? bytes : ioBytes(op);
}

rt::Status vec::checkArity(const om::OpDef &op, int minInputs, int minOutputs) {
  if (op.input_desc_size() < minInputs || op.output_desc_size() < minOutputs)
    return opError(op, "needs " + std::to_string(minInputs) + " input(s) and " +
                           std::to_string(minOutputs) + " output(s), got " +
                           std::to_string(op.input_desc_size()) + " and " +
                           std::to_string(op.output_desc_size()));
  return rt::Status::ok();
}

rt::Status vec::unsupportedDtype(const om::OpDef &op, om::DataType dt) {
  return opError(op,
                 std::string("dtype ") + dtypeName(dt) + " is not supported");
}
