//===- EventPlanTest.cpp - events and the memory plan on random streams ---===//
//
// Random DAGs on random streams go through ge-insert-events, ge-plan-memory
// and task emission; an independent brute-force reachability over the task
// list (TaskOrderCheck.h) then checks that no two buffers sharing bytes are
// touched by unordered tasks.
//
//===----------------------------------------------------------------------===//

#include "TaskOrderCheck.h"
#include "TestSupport.h"

#include "ir/GeOps.h"
#include "passes/Passes.h"
#include "passes/emit/OmEmitter.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/emit/TaskTimeline.h"

#include "executor/model/OmFormat.h"
#include "runtime/soc/SocSpec.h"

#include <functional>
#include <map>
#include <random>
#include <sstream>

using namespace geflow;
using namespace geflow::passes;

namespace {

/// A random DAG of elementwise ops on `streams` streams, with occasional
/// npu_wait_tensor edges and several graph outputs.
std::string randomGraph(std::mt19937 &rng, int streams) {
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  };
  const char *type = "tensor<64xf32>";
  int args = 1 + pick(3), ops = 4 + pick(20);
  std::vector<std::string> values;
  std::ostringstream body;
  std::ostringstream sig;
  for (int i = 0; i < args; ++i) {
    sig << (i ? ", " : "") << "%a" << i << ": " << type;
    values.push_back("%a" + std::to_string(i));
  }
  for (int i = 0; i < ops; ++i) {
    std::string v = "%v" + std::to_string(i);
    std::string x = values[pick(values.size())];
    std::string y = values[pick(values.size())];
    if (pick(6) == 0) {
      std::string w = "%w" + std::to_string(i);
      body << "  " << w << " = ge.npu_wait_tensor " << x << ", " << y << " : "
           << type << ", " << type << "\n";
      x = w;
    }
    std::string attrs =
        "{ge.stream = " + std::to_string(pick(streams)) + " : i64}";
    if (pick(2) == 0)
      body << "  " << v << " = ge." << (pick(2) ? "relu" : "neg") << " " << x
           << " " << attrs << " : " << type << "\n";
    else
      body << "  " << v << " = ge." << (pick(2) ? "add" : "mul") << " " << x
           << ", " << y << " " << attrs << " : (" << type << ", " << type
           << ") -> " << type << "\n";
    values.push_back(v);
  }
  std::vector<std::string> outputs = {values.back()};
  for (int k = pick(3); k > 0; --k)
    outputs.push_back(values[pick(values.size())]);
  std::ostringstream text;
  text << "func.func @main(" << sig.str() << ") -> (";
  for (size_t i = 0; i < outputs.size(); ++i)
    text << (i ? ", " : "") << type;
  text << ") {\n" << body.str() << "  return ";
  for (size_t i = 0; i < outputs.size(); ++i)
    text << (i ? ", " : "") << outputs[i];
  text << " : ";
  for (size_t i = 0; i < outputs.size(); ++i)
    text << (i ? ", " : "") << type;
  text << "\n}\n";
  return text.str();
}

/// Parses, inserts events, plans memory and emits the model.
om::OmModel build(mlir::MLIRContext &context, const std::string &text) {
  auto module = fixtures::parse(context, text);
  EXPECT_TRUE(module) << text;
  if (!module)
    return {};
  auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
  EXPECT_TRUE(mlir::succeeded(insertEvents(func))) << text;
  EXPECT_TRUE(mlir::succeeded(planMemory(func))) << text;
  rt::SocSpec soc;
  EXPECT_TRUE(rt::loadSocSpec("ascend910b-sim", soc).isOk());
  auto model = emitOmModel(*module, soc);
  if (!model) {
    ADD_FAILURE() << llvm::toString(model.takeError()) << "\n" << text;
    return {};
  }
  rt::Status valid = om::validateOmModel(*model, "random");
  EXPECT_TRUE(valid.isOk()) << valid.message() << "\n" << text;
  return std::move(*model);
}

TEST(EventPlan, RandomStreamsNeverShareBytesUnordered) {
  std::mt19937 rng(2024);
  int crossStreamReuse = 0, droppedWaitsCaught = 0;
  for (int round = 0; round < 150; ++round) {
    mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
    std::string text = randomGraph(rng, 1 + round % 4);
    om::OmModel model = build(context, text);
    if (::testing::Test::HasFailure())
      return;
    fixtures::TaskOrderReport report = fixtures::checkTaskOrder(model);
    EXPECT_TRUE(report.violations.empty()) << report.violations.front() << "\n"
                                           << text;
    crossStreamReuse += report.crossStreamReuse;

    // The check is not vacuous: without the waits, reuse across streams
    // is unordered somewhere.
    om::OmModel noWaits = model;
    auto *tasks = noWaits.taskDef.mutable_task();
    for (int i = tasks->size() - 1; i >= 0; --i)
      if (tasks->Get(i).type() == om::EVENT_WAIT)
        tasks->DeleteSubrange(i, 1);
    if (!fixtures::checkTaskOrder(noWaits).violations.empty())
      ++droppedWaitsCaught;
  }
  EXPECT_GT(crossStreamReuse, 0);
  EXPECT_GT(droppedWaitsCaught, 0);
}

TEST(EventPlan, ReductionKeepsEveryDependencyOrdered) {
  // Every operand's producer (and, through npu_wait_tensor, the dependency's)
  // completes before its consumer starts, by the emitted task list alone.
  std::mt19937 rng(99);
  for (int round = 0; round < 60; ++round) {
    mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
    std::string text = randomGraph(rng, 2 + round % 3);
    auto module = fixtures::parse(context, text);
    ASSERT_TRUE(module);
    auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
    // Dependencies by op, before the pass erases the wait edges.
    std::vector<std::pair<mlir::Operation *, mlir::Value>> deps;
    std::function<void(mlir::Operation *, mlir::Value)> add =
        [&](mlir::Operation *user, mlir::Value v) {
          if (auto wait = v.getDefiningOp<mlir::ge::NpuWaitTensorOp>()) {
            add(user, wait.getSelf());
            add(user, wait.getDependency());
            return;
          }
          deps.push_back({user, v});
        };
    func.walk([&](mlir::Operation *op) {
      if (isComputeOp(op))
        for (mlir::Value v : op->getOperands())
          add(op, v);
    });
    std::map<mlir::Operation *, int> index;
    int k = 0;
    func.walk([&](mlir::Operation *op) { index[op] = k++; });
    ASSERT_TRUE(mlir::succeeded(insertEvents(func)));
    mlir::FailureOr<TaskTimeline> timeline = buildTaskTimeline(func);
    ASSERT_TRUE(mlir::succeeded(timeline));
    for (auto &[user, v] : deps) {
      HappensBefore::TaskId producer =
          v.getDefiningOp()
              ? timeline->kernels.lookup(v.getDefiningOp())
              : timeline->inputCopies[llvm::cast<mlir::BlockArgument>(v)
                                          .getArgNumber()];
      EXPECT_TRUE(timeline->order.completesBefore(
          producer, timeline->kernels.lookup(user)))
          << "op #" << index[user] << "\n"
          << text;
    }
  }
}

} // namespace
