//===- ModelSanitizerTest.cpp - The sanitizer on compiled task lists ------===//
//
// The multi-stream test models (tests/models/streams), compiled as users
// compile them, run clean under the stream sanitizer; with any single event
// wait left out of the task list, with a record and its waits left out, with
// a wait moved to an earlier event, or with a memory plan that puts two
// unordered streams' outputs in the same bytes, the run fails naming the race.
// Every instantiated case asserts: the schedules whose waits have no earlier
// record to move to say so as their shape.
//
//===----------------------------------------------------------------------===//
#include "executor/model/OmFormat.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tools/driver/CompileDriver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <set>
#include <vector>

namespace geflow {
namespace {

using ::testing::HasSubstr;

struct ModelConfig {
  std::string model;
  passes::StreamMode streams;
  std::string plan; // file in the models folder, or empty
};

std::string modelsDir() { return GEFLOW_STREAM_MODELS_DIR; }

std::string configName(const ModelConfig &c) {
  std::string name = c.model + "_" + passes::streamModeName(c.streams).str();
  if (!c.plan.empty())
    name += "_plan";
  return name;
}

// gtest prints a parameter with this instead of its bytes.
void PrintTo(const ModelConfig &c, std::ostream *os) { *os << configName(c); }

om::OmModel compileConfig(const ModelConfig &c) {
  driver::CompileOptions options;
  options.streamMode = c.streams;
  if (!c.plan.empty())
    options.streamPlanPath = modelsDir() + "/" + c.plan;
  auto result =
      driver::compileOnnxFile(modelsDir() + "/" + c.model + ".onnx", options);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return om::OmModel();
  }
  return std::move(result->model);
}

/// Runs `model` once on a sanitizing device with zero inputs. `findings`
/// receives the sanitizer's list.
rt::Status runSanitized(const om::OmModel &model,
                        const exec::LoadOptions &options,
                        std::vector<std::string> *findings = nullptr) {
  rt::DeviceOptions deviceOptions;
  deviceOptions.soc = model.socName;
  deviceOptions.workerThreads = 1;
  deviceOptions.sanitize = true;
  std::unique_ptr<rt::Device> device;
  GEFLOW_RT_RETURN_IF_ERROR(rt::Device::create(deviceOptions, &device));
  std::string bytes;
  GEFLOW_RT_RETURN_IF_ERROR(om::serializeOm(model, &bytes));
  std::unique_ptr<om::LoadedOm> om;
  GEFLOW_RT_RETURN_IF_ERROR(om::loadOmBytes(bytes, "model.om", &om));
  std::unique_ptr<exec::LoadedModel> loaded;
  GEFLOW_RT_RETURN_IF_ERROR(
      exec::LoadedModel::create(exec::makeDeviceTarget(*device), std::move(om),
                                "model.om", &loaded, options));
  std::vector<std::vector<uint8_t>> storage;
  std::vector<exec::Buffer> inputs, outputs;
  for (const exec::TensorInfo &t : loaded->inputs()) {
    storage.emplace_back(t.bytes, 0);
    inputs.push_back({storage.back().data(), t.bytes});
  }
  for (const exec::TensorInfo &t : loaded->outputs()) {
    storage.emplace_back(t.bytes, 0);
    outputs.push_back({storage.back().data(), t.bytes});
  }
  rt::Status st = loaded->execute(inputs, outputs);
  if (findings)
    *findings = device->sanitizer()->findings();
  return st;
}

exec::LoadOptions skipping(std::set<int> tasks) {
  exec::LoadOptions options;
  options.skipTask = [tasks](int i) { return tasks.count(i) != 0; };
  return options;
}

/// "task 12 (EVENT_WAIT event 3 on stream 1, before 'mm2')".
std::string describeTask(const om::OmModel &m, int i) {
  const om::ModelTaskDef &td = m.taskDef;
  const om::TaskDef &t = td.task(i);
  std::string next;
  for (int j = i + 1; j < td.task_size(); ++j)
    if (td.task(j).stream_id() == t.stream_id() &&
        td.task(j).type() == om::KERNEL) {
      next = m.modelDef.graph(0).op(td.task(j).op_index()).name();
      break;
    }
  return "task " + std::to_string(i) + " (" + om::TaskType_Name(t.type()) +
         " event " + std::to_string(t.event_id()) + " on stream " +
         std::to_string(t.stream_id()) + ", before '" + next + "')";
}

class ModelSanitizerTest : public ::testing::TestWithParam<ModelConfig> {
protected:
  void SetUp() override {
    model = compileConfig(GetParam());
    ASSERT_GT(model.taskDef.stream_num(), 1u)
        << configName(GetParam()) << " compiles onto one stream";
    ASSERT_GT(model.taskDef.event_num(), 0u);
  }
  om::OmModel model;
};

TEST_P(ModelSanitizerTest, CorrectTaskListIsClean) {
  std::vector<std::string> findings;
  rt::Status st = runSanitized(model, {}, &findings);
  EXPECT_TRUE(st.isOk()) << st.toString();
  EXPECT_THAT(findings, ::testing::IsEmpty());
}

TEST_P(ModelSanitizerTest, EveryDroppedWaitIsCaught) {
  std::vector<std::string> missed;
  int waits = 0;
  for (int i = 0; i < model.taskDef.task_size(); ++i) {
    if (model.taskDef.task(i).type() != om::EVENT_WAIT)
      continue;
    ++waits;
    std::vector<std::string> findings;
    rt::Status st = runSanitized(model, skipping({i}), &findings);
    if (st.code() != rt::StatusCode::kDataRace || findings.empty())
      missed.push_back(describeTask(model, i) + ": " + st.toString());
  }
  EXPECT_GT(waits, 0);
  EXPECT_THAT(missed, ::testing::IsEmpty())
      << missed.size() << " of " << waits << " dropped waits not caught";
}

TEST_P(ModelSanitizerTest, EveryDroppedEventIsCaught) {
  // The record and every wait of one event.
  std::map<uint32_t, std::set<int>> tasksOfEvent;
  for (int i = 0; i < model.taskDef.task_size(); ++i) {
    const om::TaskDef &t = model.taskDef.task(i);
    if (t.type() == om::EVENT_RECORD || t.type() == om::EVENT_WAIT)
      tasksOfEvent[t.event_id()].insert(i);
  }
  std::vector<std::string> missed;
  for (const auto &[event, tasks] : tasksOfEvent) {
    rt::Status st = runSanitized(model, skipping(tasks));
    if (st.code() != rt::StatusCode::kDataRace)
      missed.push_back("event " + std::to_string(event) + ": " + st.toString());
  }
  EXPECT_THAT(missed, ::testing::IsEmpty());
}

/// A wait moved to the latest event recorded on the same stream before the
/// work its own record covers: one kernel too early, the subtlest wrong
/// event. (Records with nothing between them are the same point of that
/// stream; GE records one event per consumer stream there.)
struct EarlierEventWait {
  int waitTask;
  uint32_t earlierEvent;
};

/// Every such move the task list allows: none when each producer stream
/// records only once before the waits on it, as when every branch ends in
/// one join.
std::vector<EarlierEventWait> earlierEventWaits(const om::ModelTaskDef &td) {
  std::map<uint32_t, int> recordOf;
  for (int i = 0; i < td.task_size(); ++i)
    if (td.task(i).type() == om::EVENT_RECORD)
      recordOf[td.task(i).event_id()] = i;
  std::vector<EarlierEventWait> moves;
  for (int i = 0; i < td.task_size(); ++i) {
    if (td.task(i).type() != om::EVENT_WAIT)
      continue;
    int own = recordOf.at(td.task(i).event_id());
    uint32_t stream = td.task(own).stream_id();
    bool workBetween = false;
    for (int j = own - 1; j >= 0; --j) {
      const om::TaskDef &t = td.task(j);
      if (t.stream_id() != stream)
        continue;
      workBetween |= t.type() == om::KERNEL || t.type() == om::MEMCPY_ASYNC;
      if (t.type() == om::EVENT_RECORD && workBetween) {
        moves.push_back({i, t.event_id()});
        break;
      }
    }
  }
  return moves;
}

/// The schedules whose task lists have waits to move (kEarlierRecordConfigs).
class EarlierEventWaitTest : public ModelSanitizerTest {};

TEST_P(EarlierEventWaitTest, WaitOnAnEarlierEventIsCaught) {
  std::vector<EarlierEventWait> moves = earlierEventWaits(model.taskDef);
  ASSERT_THAT(moves, ::testing::Not(::testing::IsEmpty()))
      << configName(GetParam()) << " has no wait with an earlier record";
  std::vector<std::string> missed;
  for (const EarlierEventWait &move : moves) {
    om::OmModel wrong = model;
    wrong.taskDef.mutable_task(move.waitTask)->set_event_id(move.earlierEvent);
    rt::Status st = runSanitized(wrong, {});
    if (st.code() != rt::StatusCode::kDataRace)
      missed.push_back(describeTask(model, move.waitTask) + " on event " +
                       std::to_string(move.earlierEvent) + ": " +
                       st.toString());
  }
  EXPECT_THAT(missed, ::testing::IsEmpty()) << "of " << moves.size();
}

/// The others: each producer stream records once before the waits on it
/// (every branch ends in its join), so no wait has an earlier event to be
/// moved to. Should a schedule change give one such a record, this fails
/// and the schedule belongs in kEarlierRecordConfigs.
class LatestRecordOnlyTest : public ModelSanitizerTest {};

TEST_P(LatestRecordOnlyTest, NoWaitHasAnEarlierRecord) {
  std::vector<std::string> moves;
  for (const EarlierEventWait &move : earlierEventWaits(model.taskDef))
    moves.push_back(describeTask(model, move.waitTask));
  EXPECT_THAT(moves, ::testing::IsEmpty());
}

/// Schedules with a wait that an earlier record on its producer's stream
/// could serve.
const ModelConfig kEarlierRecordConfigs[] = {
    {"moe", passes::StreamMode::kAuto, "moe.plan.json"},
    {"moe", passes::StreamMode::kAuto, ""},
    {"moe_annotated", passes::StreamMode::kAuto, ""},
};

/// Schedules whose waits each have their producer stream's only record.
const ModelConfig kLatestRecordConfigs[] = {
    {"four_branches", passes::StreamMode::kAuto, ""},
    {"torchair_example", passes::StreamMode::kAuto, ""},
    {"torchair_example", passes::StreamMode::kLabel,
     "torchair_example.plan.json"},
    {"torchair_example_annotated", passes::StreamMode::kLabel,
     "torchair_example.waits.json"},
    {"moe", passes::StreamMode::kLabel, "moe.plan.json"},
    {"moe_annotated", passes::StreamMode::kLabel, ""},
};

std::vector<ModelConfig> allConfigs() {
  std::vector<ModelConfig> all(std::begin(kEarlierRecordConfigs),
                               std::end(kEarlierRecordConfigs));
  all.insert(all.end(), std::begin(kLatestRecordConfigs),
             std::end(kLatestRecordConfigs));
  return all;
}

std::string paramName(const ::testing::TestParamInfo<ModelConfig> &info) {
  return configName(info.param);
}

INSTANTIATE_TEST_SUITE_P(StreamModels, ModelSanitizerTest,
                         ::testing::ValuesIn(allConfigs()), paramName);
INSTANTIATE_TEST_SUITE_P(StreamModels, EarlierEventWaitTest,
                         ::testing::ValuesIn(kEarlierRecordConfigs), paramName);
INSTANTIATE_TEST_SUITE_P(StreamModels, LatestRecordOnlyTest,
                         ::testing::ValuesIn(kLatestRecordConfigs), paramName);

/// The outputs of the first kernel on each of two streams that nothing
/// orders (four branches on four streams), placed at the same offset: a
/// memory plan reusing a buffer across streams without an event.
TEST(ModelSanitizerPlanTest, BufferSharedByUnorderedStreamsIsCaught) {
  om::OmModel model =
      compileConfig({"four_branches", passes::StreamMode::kAuto, ""});
  ASSERT_GE(model.taskDef.stream_num(), 3u);
  std::map<uint32_t, uint32_t> firstKernelOp; // stream -> op index
  for (const om::TaskDef &t : model.taskDef.task())
    if (t.type() == om::KERNEL && !firstKernelOp.count(t.stream_id()))
      firstKernelOp[t.stream_id()] = t.op_index();
  ASSERT_TRUE(firstKernelOp.count(1) && firstKernelOp.count(2));
  om::TensorPlacement *a = nullptr, *b = nullptr;
  for (om::TensorPlacement &p : *model.memoryPlan.mutable_placement()) {
    if (p.output_index() != 0)
      continue;
    if (p.op_index() == firstKernelOp[1])
      a = &p;
    if (p.op_index() == firstKernelOp[2])
      b = &p;
  }
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->location().kind(), om::MemRef::WORKSPACE);
  ASSERT_NE(a->location().offset(), b->location().offset());
  b->mutable_location()->set_offset(a->location().offset());

  std::vector<std::string> findings;
  rt::Status st = runSanitized(model, {}, &findings);
  ASSERT_EQ(st.code(), rt::StatusCode::kDataRace) << st.toString();
  const auto &ops = model.modelDef.graph(0).op();
  std::string nameA = ops[int(firstKernelOp[1])].name();
  std::string nameB = ops[int(firstKernelOp[2])].name();
  EXPECT_THAT(findings,
              ::testing::Contains(::testing::AllOf(
                  HasSubstr("write-after-write"), HasSubstr("'" + nameA + "'"),
                  HasSubstr("'" + nameB + "'"))));
}

} // namespace
} // namespace geflow
