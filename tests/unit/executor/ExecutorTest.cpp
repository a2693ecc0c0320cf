//===- ExecutorTest.cpp - LoadedModel on a simulated device ---------------===//

#include "executor/model/OmFormat.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tests/unit/executor/TestKernels.h"
#include "tests/unit/executor/TestModels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <thread>
#include <unistd.h>

using namespace geflow;
using geflow::testing::addReluExpected;
using geflow::testing::addReluModel;
using geflow::testing::testLoadOptions;

namespace {

class Executor : public ::testing::Test {
protected:
  void SetUp() override {
    rt::DeviceOptions opts;
    opts.workerThreads = 2;
    rt::Status st = rt::Device::create(opts, &device_);
    ASSERT_TRUE(st.isOk()) << st.toString();
    path_ = ::testing::TempDir() + "geflow_exec_" + std::to_string(::getpid()) +
            ".om";
    st = om::writeOmFile(addReluModel(), path_);
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::unique_ptr<exec::LoadedModel> load(const std::string &failOp = "") {
    std::unique_ptr<exec::LoadedModel> m;
    rt::Status st =
        exec::LoadedModel::load(*device_, path_, &m, testLoadOptions(failOp));
    EXPECT_TRUE(st.isOk()) << st.toString();
    return m;
  }

  static std::vector<float> inputFor(int seed) {
    std::vector<float> x(8);
    for (int i = 0; i < 8; ++i)
      x[i] = float((seed * 7 + i * 3) % 11) - 5.0f;
    return x;
  }

  std::unique_ptr<rt::Device> device_;
  std::string path_;
};

TEST_F(Executor, DescribesInputsAndOutputs) {
  auto m = load();
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name(), "add_relu");
  ASSERT_EQ(m->inputs().size(), 1u);
  EXPECT_EQ(m->inputs()[0].name, "x");
  EXPECT_EQ(m->inputs()[0].dtype, om::DT_FLOAT);
  EXPECT_EQ(m->inputs()[0].shape, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(m->inputs()[0].bytes, 32u);
  ASSERT_EQ(m->outputs().size(), 1u);
  EXPECT_EQ(m->outputs()[0].name, "relu");
  EXPECT_EQ(m->outputs()[0].bytes, 32u);
  EXPECT_EQ(m->workspaceSize(), 128u);
}

TEST_F(Executor, ExecuteGivesRealValuesAndDeviceTime) {
  auto m = load();
  ASSERT_TRUE(m);
  std::vector<float> x = inputFor(1), y(8, -99.0f);
  exec::ExecutionStats stats;
  rt::Status st = m->execute({{x.data(), 32}}, {{y.data(), 32}}, &stats);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(y, addReluExpected(x));
  EXPECT_GT(stats.deviceTimeNs, 0);
  // The simulation is deterministic: the same execution takes the same time.
  exec::ExecutionStats again;
  ASSERT_TRUE(m->execute({{x.data(), 32}}, {{y.data(), 32}}, &again).isOk());
  EXPECT_EQ(again.deviceTimeNs, stats.deviceTimeNs);
}

TEST_F(Executor, WithTheKernelLibrarysElementwiseKernels) {
  ASSERT_TRUE(kernels::hasKernel("add") && kernels::hasKernel("relu"));
  std::unique_ptr<exec::LoadedModel> m;
  rt::Status st =
      exec::LoadedModel::load(*device_, path_, &m); // default kernels
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::vector<float> x = inputFor(4), y(8, -99.0f);
  st = m->execute({{x.data(), 32}}, {{y.data(), 32}});
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(y, addReluExpected(x));
}

TEST_F(Executor, OneLoadedModelManyTimes) {
  auto m = load();
  ASSERT_TRUE(m);
  for (int i = 0; i < 40; ++i) {
    std::vector<float> x = inputFor(i), y(8, -99.0f);
    rt::Status st = m->execute({{x.data(), 32}}, {{y.data(), 32}});
    ASSERT_TRUE(st.isOk()) << st.toString();
    ASSERT_EQ(y, addReluExpected(x)) << "run " << i;
  }
  // Workspaces go back to the pool: nothing grows with the run count.
  EXPECT_LE(device_->memoryStats().peakInUseBytes, 4096u);
}

/// Records the operand views each run sees, to tell a reused execution.
class ViewRecorder : public kernels::Kernel {
public:
  explicit ViewRecorder(std::unique_ptr<kernels::Kernel> inner,
                        std::vector<const void *> *seen)
      : inner_(std::move(inner)), seen_(seen) {}
  rt::Status run(const kernels::TensorView *in, const kernels::TensorView *out,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    if (blockIdx == 0)
      seen_->push_back(in);
    return inner_->run(in, out, blockIdx, blockDim);
  }

private:
  std::unique_ptr<kernels::Kernel> inner_;
  std::vector<const void *> *seen_;
};

TEST_F(Executor, SteadyStateTakesNoMemoryAndRebuildsNoViews) {
  // Every kernel records its views; one execution at a time, so the vector
  // is only written by one block 0 at a time.
  std::vector<const void *> seen;
  exec::LoadOptions options = testLoadOptions();
  exec::KernelFactory inner = options.kernelFactory;
  options.kernelFactory = [&](const kernels::KernelSpec &spec,
                              std::unique_ptr<kernels::Kernel> *out) {
    std::unique_ptr<kernels::Kernel> k;
    GEFLOW_RT_RETURN_IF_ERROR(inner(spec, &k));
    *out = std::make_unique<ViewRecorder>(std::move(k), &seen);
    return rt::Status::ok();
  };
  std::unique_ptr<exec::LoadedModel> m;
  ASSERT_TRUE(exec::LoadedModel::load(*device_, path_, &m, options).isOk());
  std::vector<float> x = inputFor(3), y(8, -99.0f);
  ASSERT_TRUE(m->execute({{x.data(), 32}}, {{y.data(), 32}}).isOk());
  const size_t kernelsPerRun = seen.size();
  ASSERT_GT(kernelsPerRun, 0u);
  std::vector<const void *> first = seen;
  rt::PoolStats before = device_->memoryStats();
  for (int i = 0; i < 10; ++i) {
    seen.clear();
    x = inputFor(10 + i);
    bool async = i % 2;
    rt::Status st =
        async ? m->executeAsync({{x.data(), 32}}, {{y.data(), 32}}, nullptr)
              : m->execute({{x.data(), 32}}, {{y.data(), 32}});
    if (st.isOk() && async)
      st = device_->synchronizeStream(nullptr);
    ASSERT_TRUE(st.isOk()) << st.toString();
    ASSERT_EQ(y, addReluExpected(x)) << "run " << i;
    // The views (and the closures pointing at them) of the first execution.
    EXPECT_EQ(seen, first) << "run " << i;
  }
  // The workspace comes from the pool's cache: no segment taken from the host.
  rt::PoolStats after = device_->memoryStats();
  EXPECT_EQ(after.reservedBytes, before.reservedBytes);
  EXPECT_EQ(after.numSegments, before.numSegments);
  EXPECT_EQ(after.numAllocs - after.numCacheHits,
            before.numAllocs - before.numCacheHits);
}

TEST_F(Executor, AsyncOnACallerStream) {
  auto m = load();
  ASSERT_TRUE(m);
  rt::Stream *s = nullptr;
  ASSERT_TRUE(device_->createStream(0, &s).isOk());
  const int kRuns = 6;
  std::vector<std::vector<float>> xs, ys(kRuns, std::vector<float>(8, -99.0f));
  for (int i = 0; i < kRuns; ++i)
    xs.push_back(inputFor(100 + i));
  for (int i = 0; i < kRuns; ++i) {
    rt::Status st =
        m->executeAsync({{xs[i].data(), 32}}, {{ys[i].data(), 32}}, s);
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  rt::Status st = device_->synchronizeStream(s);
  ASSERT_TRUE(st.isOk()) << st.toString();
  for (int i = 0; i < kRuns; ++i)
    EXPECT_EQ(ys[i], addReluExpected(xs[i])) << "run " << i;
}

TEST_F(Executor, AsyncWaitsForTheCallersEarlierWork) {
  auto m = load();
  ASSERT_TRUE(m);
  rt::Stream *s = nullptr;
  ASSERT_TRUE(device_->createStream(0, &s).isOk());
  std::vector<float> x(8, 0.0f), y(8, -99.0f), later = inputFor(5);
  // The caller's own copy fills x on the device timeline before the model.
  ASSERT_TRUE(device_
                  ->memcpyAsync(s, x.data(), 32, later.data(), 32,
                                rt::MemcpyKind::kHostToDevice)
                  .isOk());
  ASSERT_TRUE(m->executeAsync({{x.data(), 32}}, {{y.data(), 32}}, s).isOk());
  ASSERT_TRUE(device_->synchronizeStream(s).isOk());
  EXPECT_EQ(y, addReluExpected(later));
}

TEST_F(Executor, TwoHostThreadsOnDifferentStreams) {
  auto m = load();
  ASSERT_TRUE(m);
  std::atomic<int> failures{0};
  auto worker = [&](int id, bool async) {
    rt::Stream *s = nullptr;
    if (!device_->createStream(0, &s).isOk()) {
      ++failures;
      return;
    }
    for (int i = 0; i < 25; ++i) {
      std::vector<float> x = inputFor(id * 1000 + i), y(8, -99.0f);
      rt::Status st =
          async ? m->executeAsync({{x.data(), 32}}, {{y.data(), 32}}, s)
                : m->execute({{x.data(), 32}}, {{y.data(), 32}});
      if (st.isOk() && async)
        st = device_->synchronizeStream(s);
      if (!st.isOk() || y != addReluExpected(x))
        ++failures;
    }
  };
  for (bool async : {false, true}) {
    std::thread a(worker, 1, async), b(worker, 2, async);
    a.join();
    b.join();
    EXPECT_EQ(failures.load(), 0) << (async ? "async" : "sync");
  }
}

TEST_F(Executor, KernelFailureIsReportedByItsExecution) {
  auto m = load("add");
  ASSERT_TRUE(m);
  std::vector<float> x = inputFor(3), y(8);
  rt::Status st = m->execute({{x.data(), 32}}, {{y.data(), 32}});
  EXPECT_EQ(st.code(), rt::StatusCode::kKernelFailed);
  EXPECT_EQ(st.message(), "add_relu: node 'add' (add): deliberate failure");
  rt::Stream *s = nullptr;
  ASSERT_TRUE(device_->createStream(0, &s).isOk());
  ASSERT_TRUE(m->executeAsync({{x.data(), 32}}, {{y.data(), 32}}, s).isOk());
  st = device_->synchronizeStream(s);
  EXPECT_EQ(st.code(), rt::StatusCode::kKernelFailed);
  EXPECT_NE(st.message().find("deliberate failure"), std::string::npos)
      << st.message();
}

TEST_F(Executor, BufferChecks) {
  auto m = load();
  ASSERT_TRUE(m);
  std::vector<float> x(8), y(8);
  rt::Status st = m->execute({{x.data(), 16}}, {{y.data(), 32}});
  EXPECT_EQ(st.message(),
            "add_relu: input 0 'x': buffer has 16 bytes, needs 32");
  st = m->execute({}, {{y.data(), 32}});
  EXPECT_EQ(st.message(), "add_relu: 0 input buffers given, the model has 1");
  // The model still works afterwards.
  std::vector<float> x2 = inputFor(9);
  ASSERT_TRUE(m->execute({{x2.data(), 32}}, {{y.data(), 32}}).isOk());
  EXPECT_EQ(y, addReluExpected(x2));
}

TEST_F(Executor, LoadErrorsPassThrough) {
  std::unique_ptr<exec::LoadedModel> m;
  rt::Status st = exec::LoadedModel::load(*device_, "/nonexistent.om", &m);
  EXPECT_EQ(st.code(), rt::StatusCode::kNotFound);
  EXPECT_FALSE(m);
}

} // namespace
