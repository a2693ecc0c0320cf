//===- KernelTestUtil.h - tiny OpDefs and host tensors for kernel tests -*- C++
//-*-===//
//
// Build an OpDef in a line (OpBuilder), hold a tensor's bytes with its
// descriptor (HostTensor), and run a kernel over every block of a launch
// (runOp), blocks on threads of their own so races show.
//
//   om::OpDef op = OpBuilder("add")
//                      .input(om::DT_FLOAT, {2, 3})
//                      .input(om::DT_FLOAT, {3})
//                      .output(om::DT_FLOAT, {2, 3})
//                      .op();
//   auto out = runOp(op, {tensor<float>({2, 3}, {...}), tensor<float>({3},
//   {...})}, 3); EXPECT_EQ(out[0].values<float>(), (std::vector<float>{...}));
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_KERNELS_KERNELTESTUTIL_H
#define GEFLOW_TESTS_UNIT_KERNELS_KERNELTESTUTIL_H

#include "executor/kernels/Kernel.h"
#include "executor/kernels/support/KernelSupport.h"
#include "runtime/HostWorkers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace geflow::kernels::test {

/// The block counts every kernel test runs with.
inline const std::vector<uint32_t> kBlockDims = {1, 3, 7};

template <class T> om::DataType dtypeFor() {
  if constexpr (std::is_same_v<T, float>)
    return om::DT_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return om::DT_DOUBLE;
  else if constexpr (std::is_same_v<T, int8_t>)
    return om::DT_INT8;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return om::DT_UINT8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return om::DT_INT16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return om::DT_INT32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return om::DT_INT64;
  else if constexpr (std::is_same_v<T, bool>)
    return om::DT_BOOL;
  else
    return om::DT_UNDEFINED;
}

inline om::TensorDescriptor makeDesc(om::DataType dtype,
                                     const std::vector<int64_t> &shape) {
  om::TensorDescriptor d;
  d.set_dtype(dtype);
  for (int64_t s : shape)
    d.add_shape(s);
  d.set_layout("ND");
  d.set_size(static_cast<int64_t>(numElements(d) * dtypeSize(dtype)));
  return d;
}

/// A tensor's descriptor and bytes. A default HostTensor (DT_UNDEFINED, no
/// bytes) stands for an absent optional input.
struct HostTensor {
  om::TensorDescriptor desc;
  std::vector<uint8_t> bytes;

  template <class T> std::vector<T> values() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty())
      std::memcpy(static_cast<void *>(v.data()), bytes.data(),
                  v.size() * sizeof(T));
    return v;
  }
  std::vector<int64_t> shape() const { return shapeOf(desc); }
};

template <class T>
HostTensor tensor(const std::vector<int64_t> &shape,
                  const std::vector<T> &values) {
  HostTensor t;
  t.desc = makeDesc(dtypeFor<T>(), shape);
  const auto *src = reinterpret_cast<const uint8_t *>(values.data());
  t.bytes.assign(src, src + values.size() * sizeof(T));
  return t;
}

/// vector<bool> has no data(): bool tensors from a list of 0/1.
inline HostTensor boolTensor(const std::vector<int64_t> &shape,
                             const std::vector<int> &values) {
  HostTensor t;
  t.desc = makeDesc(om::DT_BOOL, shape);
  for (int v : values)
    t.bytes.push_back(v ? 1 : 0);
  return t;
}

class OpBuilder {
public:
  explicit OpBuilder(const std::string &type, const std::string &name = "n0") {
    op_.set_type(type);
    op_.set_name(name);
  }
  OpBuilder &input(om::DataType dtype, const std::vector<int64_t> &shape) {
    *op_.add_input_desc() = makeDesc(dtype, shape);
    op_.add_input("in:" + std::to_string(op_.input_size()));
    return *this;
  }
  /// The descriptor of an existing tensor.
  OpBuilder &input(const HostTensor &t) {
    *op_.add_input_desc() = t.desc;
    op_.add_input(t.desc.dtype() == om::DT_UNDEFINED
                      ? std::string()
                      : "in:" + std::to_string(op_.input_size()));
    return *this;
  }
  /// An absent optional input in the middle of the list.
  OpBuilder &absentInput() {
    op_.add_input_desc()->set_dtype(om::DT_UNDEFINED);
    op_.add_input("");
    return *this;
  }
  OpBuilder &output(om::DataType dtype, const std::vector<int64_t> &shape) {
    *op_.add_output_desc() = makeDesc(dtype, shape);
    return *this;
  }
  OpBuilder &attr(const std::string &name, int64_t v) {
    (*op_.mutable_attr())[name].set_i(v);
    return *this;
  }
  OpBuilder &attr(const std::string &name, int v) {
    return attr(name, static_cast<int64_t>(v));
  }
  OpBuilder &attr(const std::string &name, float v) {
    (*op_.mutable_attr())[name].set_f(v);
    return *this;
  }
  OpBuilder &attr(const std::string &name, const std::string &v) {
    (*op_.mutable_attr())[name].set_s(v);
    return *this;
  }
  OpBuilder &attr(const std::string &name, const char *v) {
    return attr(name, std::string(v));
  }
  OpBuilder &attrInts(const std::string &name, const std::vector<int64_t> &v) {
    auto *list = (*op_.mutable_attr())[name].mutable_list();
    for (int64_t x : v)
      list->add_i(x);
    return *this;
  }
  OpBuilder &attrFloats(const std::string &name, const std::vector<float> &v) {
    auto *list = (*op_.mutable_attr())[name].mutable_list();
    for (float x : v)
      list->add_f(x);
    return *this;
  }
  OpBuilder &attrTensor(const std::string &name, const HostTensor &t) {
    auto *def = (*op_.mutable_attr())[name].mutable_t();
    *def->mutable_desc() = t.desc;
    def->set_data(std::string(t.bytes.begin(), t.bytes.end()));
    return *this;
  }
  const om::OpDef &op() const { return op_; }
  operator const om::OpDef &() const { return op_; }

private:
  om::OpDef op_;
};

/// An OpDef whose input descriptors are those of `inputs`.
inline om::OpDef withInputs(const om::OpDef &base,
                            const std::vector<HostTensor> &inputs) {
  om::OpDef op = base;
  op.clear_input_desc();
  for (const HostTensor &t : inputs)
    *op.add_input_desc() = t.desc;
  return op;
}

/// Plans, creates and runs `op` over `blockDim` blocks (each on its own
/// thread). With `asConstants`, every input is passed as a constant at
/// creation too. Returns the outputs; a failing status is a test failure
/// (and `status`, when given, receives it).
inline std::vector<HostTensor> runOp(const om::OpDef &op,
                                     const std::vector<HostTensor> &inputs,
                                     uint32_t blockDim,
                                     bool asConstants = false,
                                     rt::Status *status = nullptr) {
  std::vector<HostTensor> outputs;
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  if (st.isOk() && plan.maxBlocks < 1)
    st = rt::makeStatus(rt::StatusCode::kInternal, "maxBlocks < 1");
  KernelSpec spec;
  spec.op = &op;
  for (const HostTensor &t : inputs)
    spec.constantInputs.push_back(
        asConstants && !t.bytes.empty() ? t.bytes.data() : nullptr);
  std::unique_ptr<Kernel> kernel;
  if (st.isOk())
    st = createKernel(spec, &kernel);
  if (st.isOk()) {
    std::vector<TensorView> in(inputs.size()), out(op.output_desc_size());
    for (size_t i = 0; i < inputs.size(); ++i)
      in[i] = {const_cast<uint8_t *>(inputs[i].bytes.data()), &inputs[i].desc};
    outputs.resize(op.output_desc_size());
    for (int i = 0; i < op.output_desc_size(); ++i) {
      outputs[i].desc = op.output_desc(i);
      // Poison so that unwritten elements show.
      outputs[i].bytes.assign(numElements(op.output_desc(i)) *
                                  dtypeSize(op.output_desc(i).dtype()),
                              0xAB);
      out[i] = {outputs[i].bytes.data(), &outputs[i].desc};
    }
    std::vector<rt::Status> results(blockDim);
    std::vector<std::thread> threads;
    for (uint32_t b = 0; b < blockDim; ++b)
      threads.emplace_back([&, b] {
        results[b] = kernel->run(in.data(), out.data(), b, blockDim);
      });
    for (auto &t : threads)
      t.join();
    for (const rt::Status &r : results)
      if (!r.isOk() && st.isOk())
        st = r;
  }
  if (status)
    *status = st;
  else if (!st.isOk())
    ADD_FAILURE() << "op " << op.type() << ": " << st.toString();
  return outputs;
}

/// Element-wise |a - b| <= tol * max(1, |b|).
template <class T>
void expectNear(const std::vector<T> &actual, const std::vector<T> &expected,
                double tol = 1e-5) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    double a = static_cast<double>(actual[i]),
           e = static_cast<double>(expected[i]);
    double scale = std::max(1.0, std::abs(e));
    EXPECT_NEAR(a, e, tol * scale) << "at element " << i;
  }
}

/// Runs `op` at every block count, with inputs at run time and as constants,
/// and checks that all agree; returns output `k`.
template <class T>
std::vector<T> runAll(const om::OpDef &op, const std::vector<HostTensor> &in,
                      int k = 0) {
  std::vector<T> first;
  bool have = false;
  for (bool constants : {false, true})
    for (uint32_t blocks : kBlockDims) {
      auto out = runOp(op, in, blocks, constants);
      if (out.empty())
        return {};
      auto v = out[k].values<T>();
      if (!have) {
        first = v;
        have = true;
      }
      EXPECT_EQ(v, first) << op.type() << " blocks " << blocks
                          << (constants ? " (constants)" : "");
    }
  return first;
}

//===----------------------------------------------------------------------===//
// Raw-buffer helpers for the NN kernel tests (conv, pool, gemm, norm), which
// compare against direct loops over plain float vectors.
//===----------------------------------------------------------------------===//

using Shape = std::vector<int64_t>;

/// A descriptor with only dtype and dims, as the emitter writes one.
inline om::TensorDescriptor desc(const std::vector<int64_t> &shape,
                                 om::DataType dtype = om::DT_FLOAT) {
  om::TensorDescriptor d;
  d.set_dtype(dtype);
  for (int64_t v : shape)
    d.add_shape(v);
  return d;
}

inline int64_t count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t v : shape)
    n *= v;
  return n;
}

/// `n` values uniform in [lo, hi), the same for the same seed.
inline std::vector<float> random(int64_t n, unsigned seed, float lo = -1.0f,
                                 float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

inline void setInt(om::OpDef &op, const std::string &name, int64_t v) {
  (*op.mutable_attr())[name].set_i(v);
}
inline void setFloat(om::OpDef &op, const std::string &name, float v) {
  (*op.mutable_attr())[name].set_f(v);
}
inline void setInts(om::OpDef &op, const std::string &name,
                    const std::vector<int64_t> &v) {
  om::ListValue *list = (*op.mutable_attr())[name].mutable_list();
  for (int64_t x : v)
    list->add_i(x);
}

/// How runBuffers launches the blocks.
struct BufferRun {
  rt::Engine engine;      ///< the engine the plan must choose
  bool threads = true;    ///< blocks on threads of their own, as on the device
  int constantInput = -1; ///< this input is handed over at creation too
};

/// Plans, creates and runs `op` as `blockDim` blocks over caller-owned
/// buffers (one per input and output descriptor).
inline rt::Status runBuffers(const om::OpDef &op,
                             const std::vector<const void *> &in,
                             const std::vector<void *> &outs, uint32_t blockDim,
                             const BufferRun &how) {
  KernelPlan plan;
  GEFLOW_RT_RETURN_IF_ERROR(planKernel(op, &plan));
  EXPECT_EQ(plan.engine, how.engine);
  EXPECT_GE(plan.maxBlocks, 1u);
  KernelSpec spec;
  spec.op = &op;
  spec.constantInputs.assign(op.input_desc_size(), nullptr);
  if (how.constantInput >= 0)
    spec.constantInputs[how.constantInput] = in[how.constantInput];
  std::unique_ptr<Kernel> kernel;
  GEFLOW_RT_RETURN_IF_ERROR(createKernel(spec, &kernel));
  std::vector<TensorView> inputs, outputs;
  for (int i = 0; i < op.input_desc_size(); ++i)
    inputs.push_back({const_cast<void *>(in[i]), &op.input_desc(i)});
  for (int i = 0; i < op.output_desc_size(); ++i)
    outputs.push_back({outs[i], &op.output_desc(i)});
  if (!how.threads) {
    for (uint32_t b = 0; b < blockDim; ++b)
      GEFLOW_RT_RETURN_IF_ERROR(
          kernel->run(inputs.data(), outputs.data(), b, blockDim));
    return rt::Status::ok();
  }
  std::vector<rt::Status> results(blockDim);
  std::vector<std::thread> threads;
  // Every block on a thread of its own: as many host threads as blocks
  // may run the kernel, so kernels that fold their blocks into one share
  // per host thread run every share.
  for (uint32_t b = 0; b < blockDim; ++b)
    threads.emplace_back([&, b] {
      rt::KernelHostThreadsScope hostThreads(blockDim);
      results[b] = kernel->run(inputs.data(), outputs.data(), b, blockDim);
    });
  for (std::thread &t : threads)
    t.join();
  for (const rt::Status &st : results)
    GEFLOW_RT_RETURN_IF_ERROR(st);
  return rt::Status::ok();
}

/// Element-wise |got - want| <= absTol; stops at the first miss.
template <class T, class U>
void expectNearAbs(const std::vector<T> &got, const std::vector<U> &want,
                   double absTol = 1e-4) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], absTol) << "at element " << i;
}

} // namespace geflow::kernels::test

#endif // GEFLOW_TESTS_UNIT_KERNELS_KERNELTESTUTIL_H
