//===- GearExecutorTest.cpp - LoadedModel over a model with gears ---------===//

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tests/unit/executor/TestGearModels.h"

#include <gtest/gtest.h>

#include <thread>

using namespace geflow;
using geflow::testing::addReluGearModel;
using geflow::testing::addReluModel;
using geflow::testing::gearExpected;
using geflow::testing::InMemoryOm;

namespace {

class GearExecutor : public ::testing::Test {
protected:
  void SetUp() override {
    rt::DeviceOptions opts;
    opts.workerThreads = 1;
    rt::Status st = rt::Device::create(opts, &device_);
    ASSERT_TRUE(st.isOk()) << st.toString();
  }

  std::unique_ptr<exec::LoadedModel> load(om::OmModel model) {
    std::unique_ptr<exec::LoadedModel> m;
    rt::Status st = exec::LoadedModel::create(
        exec::makeDeviceTarget(*device_),
        std::make_unique<InMemoryOm>(std::move(model)), "gears.om", &m);
    EXPECT_TRUE(st.isOk()) << st.toString();
    return m;
  }

  static std::vector<float> inputOf(int64_t batch, int seed) {
    std::vector<float> x(batch * 4);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float((seed * 5 + int(i) * 3) % 13) - 6.0f;
    return x;
  }

  std::unique_ptr<rt::Device> device_;
};

TEST_F(GearExecutor, DescribesEveryGear) {
  auto m = load(addReluGearModel({1, 2, 4}));
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->hasGears());
  ASSERT_EQ(m->gearCount(), 3u);
  EXPECT_EQ(m->inputs(0)[0].shape, (exec::Shape{1, 4}));
  EXPECT_EQ(m->inputs(2)[0].shape, (exec::Shape{4, 4}));
  EXPECT_EQ(m->inputs(2)[0].bytes, 64u);
  EXPECT_EQ(m->outputs(1)[0].shape, (exec::Shape{2, 4}));
  EXPECT_EQ(m->outputs(1)[0].name, "relu");
  EXPECT_EQ(m->gearLabel(1), "Batch_1");
  EXPECT_EQ(m->describeGears(), "Batch_0 [1,4], Batch_1 [2,4], Batch_2 [4,4]");
  // The largest gear's workspace serves every gear.
  EXPECT_EQ(m->workspaceSize(), 128u);
}

TEST_F(GearExecutor, FindsTheGearOfExactShapes) {
  auto m = load(addReluGearModel({1, 2, 4}));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->findGear({{2, 4}}), 1);
  EXPECT_EQ(m->findGear({{4, 4}}), 2);
  EXPECT_EQ(m->findGear({{3, 4}}), -1);
  EXPECT_EQ(m->findGear({{2, 5}}), -1);
  EXPECT_EQ(m->findGear({}), -1);
}

TEST_F(GearExecutor, EachGearGivesRealValuesOnSharedStreams) {
  auto m = load(addReluGearModel({1, 2, 4}));
  ASSERT_TRUE(m);
  std::vector<rt::StreamId> streams = m->streamIds();
  ASSERT_EQ(streams.size(), 2u);
  // Alternate gears: each execution binds only its own program.
  for (int round = 0; round < 2; ++round)
    for (size_t g : {2u, 0u, 1u}) {
      int64_t batch = m->inputs(g)[0].shape[0];
      std::vector<float> x = inputOf(batch, round + int(g)),
                         y(x.size(), -99.0f);
      exec::ExecutionStats stats;
      rt::Status st = m->execute({{x.data(), x.size() * 4}},
                                 {{y.data(), y.size() * 4}}, &stats, g);
      ASSERT_TRUE(st.isOk()) << st.toString();
      EXPECT_EQ(y, gearExpected(x)) << "gear " << g;
      EXPECT_GT(stats.deviceTimeNs, 0);
    }
  EXPECT_EQ(m->streamIds(), streams);
}

TEST_F(GearExecutor, AsyncExecutionsOfDifferentGearsOnOneStream) {
  auto m = load(addReluGearModel({1, 4}));
  ASSERT_TRUE(m);
  std::vector<float> x1 = inputOf(1, 1), y1(4), x4 = inputOf(4, 2), y4(16);
  rt::Stream *s = nullptr;
  ASSERT_TRUE(device_->createStream(0, &s).isOk());
  ASSERT_TRUE(
      m->executeAsync({{x4.data(), 64}}, {{y4.data(), 64}}, s, 1).isOk());
  ASSERT_TRUE(
      m->executeAsync({{x1.data(), 16}}, {{y1.data(), 16}}, s, 0).isOk());
  ASSERT_TRUE(device_->synchronizeStream(s).isOk());
  EXPECT_EQ(y1, gearExpected(x1));
  EXPECT_EQ(y4, gearExpected(x4));
  (void)device_->destroyStream(s);
}

TEST_F(GearExecutor, ThreadsRunDifferentGearsAtOnce) {
  auto m = load(addReluGearModel({1, 2, 4}));
  ASSERT_TRUE(m);
  std::vector<std::thread> threads;
  std::vector<int> wrong(3, 0);
  for (size_t g = 0; g < 3; ++g)
    threads.emplace_back([&, g] {
      int64_t batch = m->inputs(g)[0].shape[0];
      for (int r = 0; r < 20; ++r) {
        std::vector<float> x = inputOf(batch, r), y(x.size());
        rt::Status st = m->execute({{x.data(), x.size() * 4}},
                                   {{y.data(), y.size() * 4}}, nullptr, g);
        if (!st.isOk() || y != gearExpected(x))
          ++wrong[g];
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(wrong, (std::vector<int>{0, 0, 0}));
}

TEST_F(GearExecutor, GearOutOfRangeListsTheGears) {
  auto m = load(addReluGearModel({1, 2}));
  ASSERT_TRUE(m);
  std::vector<float> x(8), y(8);
  rt::Status st = m->execute({{x.data(), 32}}, {{y.data(), 32}}, nullptr, 2);
  EXPECT_EQ(st.code(), rt::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "add_relu_gears: gear 2 out of range: the model "
                          "has 2 (Batch_0 [1,4], Batch_1 [2,4])");
}

TEST_F(GearExecutor, BuffersAreCheckedAgainstTheRunningGear) {
  auto m = load(addReluGearModel({1, 2}));
  ASSERT_TRUE(m);
  std::vector<float> x(4), y(4);
  // Enough for gear 0, not for gear 1.
  EXPECT_TRUE(
      m->execute({{x.data(), 16}}, {{y.data(), 16}}, nullptr, 0).isOk());
  rt::Status st = m->execute({{x.data(), 16}}, {{y.data(), 16}}, nullptr, 1);
  EXPECT_EQ(st.code(), rt::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("input 0 'x': buffer has 16 bytes, needs 32"),
            std::string::npos)
      << st.message();
}

TEST_F(GearExecutor, StaticModelIsGearZero) {
  auto m = load(addReluModel());
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->hasGears());
  EXPECT_EQ(m->gearCount(), 1u);
  EXPECT_EQ(m->gearLabel(0), "");
  EXPECT_EQ(m->findGear({{2, 4}}), 0);
  EXPECT_EQ(m->findGear({{1, 4}}), -1);
  EXPECT_EQ(m->describeGears(), "gear 0 [2,4]");
  EXPECT_EQ(&m->inputs(), &m->inputs(0));
}

// --- GearSelection: the shape rules, without a model -----------------------

TEST(GearSelection, SmallestGearHolding) {
  std::vector<exec::Shapes> gears = {
      {{1, 3, 8, 8}}, {{4, 3, 8, 8}}, {{2, 3, 8, 8}}, {{8, 3, 8, 8}}};
  EXPECT_EQ(exec::smallestGearHolding(gears, {{3, 3, 8, 8}}), 1);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{2, 3, 8, 8}}), 2);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{1, 3, 5, 8}}), 0);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{9, 3, 8, 8}}), -1);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{1, 3, 8}}), -1);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{1, 4, 8, 8}}), -1);
  EXPECT_EQ(exec::largestGear(gears), 3);
}

TEST(GearSelection, SmallestGearHoldingEveryInput) {
  // Two inputs (ATC's --dynamic-dims "1,16;4,8;2,32"): batch and length.
  std::vector<exec::Shapes> gears = {
      {{1, 16}, {1}}, {{4, 8}, {4}}, {{2, 32}, {2}}};
  EXPECT_EQ(exec::smallestGearHolding(gears, {{1, 20}, {1}}), 2);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{3, 8}, {3}}), 1);
  EXPECT_EQ(exec::smallestGearHolding(gears, {{3, 20}, {3}}), -1);
}

TEST(GearSelection, OutputDimsFollowTheirInputDims) {
  // Output 0 [B, 10] follows input 0's batch; output 1 [B, L, 7] its batch and
  // length; output 2 [5] is fixed; output 3 [2B] follows nothing.
  std::vector<exec::Shapes> in = {{{1, 16}}, {{2, 32}}, {{4, 32}}};
  std::vector<exec::Shapes> out = {
      {{1, 10}, {1, 16, 7}, {5}, {2}},
      {{2, 10}, {2, 32, 7}, {5}, {4}},
      {{4, 10}, {4, 32, 7}, {5}, {8}},
  };
  exec::Shapes given = {{3, 20}};
  EXPECT_EQ(exec::followedOutputShape(in, out, 2, 0, given),
            (exec::Shape{3, 10}));
  EXPECT_EQ(exec::followedOutputShape(in, out, 2, 1, given),
            (exec::Shape{3, 20, 7}));
  EXPECT_EQ(exec::followedOutputShape(in, out, 2, 2, given), (exec::Shape{5}));
  EXPECT_EQ(exec::followedOutputShape(in, out, 2, 3, given), (exec::Shape{8}));
  EXPECT_EQ(exec::shapesText({{1, 2}, {}}), "[1,2] []");
}

} // namespace
