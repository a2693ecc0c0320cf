//===- MemoryPlanTest.cpp - ge-plan-memory never overlaps live buffers ----===//

#include "TestSupport.h"

#include "passes/Passes.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/MemoryPlanner.h"
#include "passes/emit/OpDefBuilder.h"

#include <random>

using namespace geflow::passes;

namespace {

/// Fails the test for every pair of buffers that are live at once and share
/// a byte.
void expectNoLiveOverlap(const std::vector<BufferRequest> &requests,
                         const MemoryPlanResult &plan, uint64_t alignment) {
  ASSERT_EQ(plan.offsets.size(), requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % alignment, 0u) << "buffer " << i;
    EXPECT_LE(plan.offsets[i] + requests[i].size, plan.workspaceSize);
    for (size_t j = i + 1; j < requests.size(); ++j) {
      const auto &a = requests[i], &b = requests[j];
      bool liveTogether = !(a.lastUse < b.def || b.lastUse < a.def);
      bool share = plan.offsets[i] < plan.offsets[j] + b.size &&
                   plan.offsets[j] < plan.offsets[i] + a.size;
      EXPECT_FALSE(liveTogether && share)
          << "buffers " << i << " [" << a.def << "," << a.lastUse << "] and "
          << j << " [" << b.def << "," << b.lastUse << "] overlap at offsets "
          << plan.offsets[i] << " and " << plan.offsets[j];
    }
  }
}

TEST(MemoryPlanner, ChainNeedsTwoSlots) {
  std::vector<BufferRequest> chain;
  for (int i = 0; i < 8; ++i)
    chain.push_back({1000, i, i + 1, 0});
  MemoryPlanResult plan = planBuffers(chain);
  expectNoLiveOverlap(chain, plan, 64);
  EXPECT_EQ(plan.workspaceSize, 2 * 1024u);
  EXPECT_EQ(plan.workspaceSizeWithoutReuse, 8 * 1024u);
}

TEST(MemoryPlanner, RandomGraphsNeverOverlapAndReuseHelps) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<BufferRequest> requests;
    int n = 5 + round;
    for (int i = 0; i < n; ++i) {
      int64_t def = i;
      int64_t last = def + std::uniform_int_distribution<int>(0, 6)(rng);
      uint64_t size = std::uniform_int_distribution<uint64_t>(1, 5000)(rng);
      requests.push_back({size, def, last, 0});
    }
    MemoryPlanResult plan = planBuffers(requests);
    expectNoLiveOverlap(requests, plan, 64);
    EXPECT_LE(plan.workspaceSize, plan.workspaceSizeWithoutReuse);

    MemoryPlanOptions noReuse;
    noReuse.reuse = false;
    MemoryPlanResult flat = planBuffers(requests, noReuse);
    EXPECT_EQ(flat.workspaceSize, plan.workspaceSizeWithoutReuse);
  }
}

TEST(MemoryPlanner, StreamAwareOrderingIsOnePredicate) {
  // Two buffers disjoint in op order but written on different streams: with
  // no event between them happens-before keeps them apart; an event after
  // the first buffer's reader lets the second take its memory.
  for (bool withEvent : {false, true}) {
    HappensBefore order(2);
    HappensBefore::TaskId w0 = order.addTask(0), r0 = order.addTask(0);
    if (withEvent) {
      order.recordEvent(0, 0);
      order.waitEvent(1, 0);
    }
    HappensBefore::TaskId w1 = order.addTask(1), r1 = order.addTask(1);
    std::vector<BufferRequest> requests = {{512, 0, 1, w0, {r0}},
                                           {512, 2, 3, w1, {r1}}};
    EXPECT_EQ(planBuffers(requests).workspaceSize, 512u); // op order alone
    MemoryPlanOptions options;
    options.orderedBefore = orderedByHappensBefore(order);
    EXPECT_EQ(planBuffers(requests, options).workspaceSize,
              withEvent ? 512u : 1024u);
  }
}

TEST(PlanMemory, TinyCnnLiveBuffersNeverOverlap) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module = fixtures::importTinyCnn(context);
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
  ASSERT_TRUE(func);
  ASSERT_TRUE(mlir::succeeded(planMemory(func)));

  // Liveness recomputed here from the IR, independently of the pass.
  mlir::Block &body = func.getBody().front();
  llvm::DenseMap<mlir::Operation *, int64_t> pos;
  int64_t next = 1;
  for (mlir::Operation &op : body)
    pos[&op] = next++;
  std::vector<BufferRequest> requests;
  std::vector<uint64_t> offsets;
  auto add = [&](mlir::Value v, int64_t def, int64_t offset) {
    BufferRequest r{uint64_t(tensorBytes(v.getType())), def, def, 0};
    for (mlir::Operation *user : v.getUsers())
      r.lastUse = std::max(r.lastUse, pos[user]);
    requests.push_back(r);
    offsets.push_back(offset);
  };
  auto inputs = func->getAttrOfType<mlir::DenseI64ArrayAttr>(kInputOffsetsAttr);
  ASSERT_TRUE(inputs);
  for (mlir::BlockArgument arg : func.getArguments())
    add(arg, 0, inputs[arg.getArgNumber()]);
  for (mlir::Operation &op : body) {
    if (!isComputeOp(&op))
      continue;
    auto out = op.getAttrOfType<mlir::DenseI64ArrayAttr>(kOutputOffsetsAttr);
    ASSERT_TRUE(out) << op.getName().getStringRef().str();
    for (mlir::OpResult r : op.getResults())
      add(r, pos[&op], out[r.getResultNumber()]);
  }
  MemoryPlanResult plan;
  plan.offsets = offsets;
  plan.workspaceSize =
      func->getAttrOfType<mlir::IntegerAttr>(kWorkspaceSizeAttr).getInt();
  uint64_t noReuse =
      func->getAttrOfType<mlir::IntegerAttr>(kWorkspaceSizeNoReuseAttr)
          .getInt();
  expectNoLiveOverlap(requests, plan, 64);
  EXPECT_EQ(requests.size(), 14u); // the image and 13 op results
  EXPECT_LT(plan.workspaceSize, noReuse);
  // 1x16x32x32 floats are 64 KiB; at most three such tensors are ever live
  // (the residual block's two branches and the value read by both).
  EXPECT_LE(plan.workspaceSize, 3u * 65536 + 4096);
}

} // namespace

namespace {

TEST(MemoryPlanner, HappensBeforeOrderingNeedsEveryReader) {
  HappensBefore order(2);
  HappensBefore::TaskId w = order.addTask(0), r = order.addTask(1);
  HappensBefore::TaskId later = order.addTask(0);
  BufferRequest a{256, 1, 2, w, {}}, next{256, 3, 4, later, {}};
  OrderedBefore ordered = orderedByHappensBefore(order);
  EXPECT_TRUE(ordered(a, next));
  a.readers.push_back(r); // read on stream 1, nothing orders it
  EXPECT_FALSE(ordered(a, next));
}

} // namespace
