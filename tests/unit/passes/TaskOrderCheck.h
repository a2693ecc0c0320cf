//===- TaskOrderCheck.h - brute-force memory safety of an OM task list ----===//
//
// An independent check of the stream-aware memory plan, on the emitted
// model itself: the task graph's edges are stream order (consecutive tasks of
// a stream) and events (a wait after the latest record of its event enqueued
// before it); reachability is a plain closure over them. Two tasks that touch
// different buffers sharing a workspace byte must be ordered.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_PASSES_TASKORDERCHECK_H
#define GEFLOW_TESTS_UNIT_PASSES_TASKORDERCHECK_H

#include "executor/model/OmModel.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace geflow::passes::fixtures {

struct TaskOrderReport {
  std::vector<std::string> violations;
  /// Buffer pairs that share bytes and whose writers run on different
  /// streams: reuse across streams that the plan relied on events for.
  int crossStreamReuse = 0;
};

inline TaskOrderReport checkTaskOrder(const om::OmModel &model) {
  using Buffer = std::pair<uint32_t, uint32_t>; // op index, output index
  struct Access {
    Buffer buffer;
    int64_t begin, end;
  };
  const om::GraphDef &graph = model.modelDef.graph(0);
  const auto &tasks = model.taskDef.task();
  const int n = tasks.size();

  std::map<std::string, uint32_t> opByName;
  for (int i = 0; i < graph.op_size(); ++i)
    opByName[graph.op(i).name()] = i;
  std::map<Buffer, std::pair<int64_t, int64_t>> workspace; // [begin, end)
  for (const om::TensorPlacement &p : model.memoryPlan.placement())
    if (p.location().kind() == om::MemRef::WORKSPACE)
      workspace[{p.op_index(), p.output_index()}] = {
          p.location().offset(), p.location().offset() + int64_t(p.size())};
  auto bufferOf = [&](const std::string &ref) -> std::pair<bool, Buffer> {
    size_t colon = ref.rfind(':');
    if (ref.empty() || ref[0] == '^' || colon == std::string::npos)
      return {false, {}};
    Buffer b{opByName.at(ref.substr(0, colon)),
             uint32_t(std::stoul(ref.substr(colon + 1)))};
    return {workspace.count(b) > 0, b};
  };

  std::vector<std::vector<Access>> accesses(n);
  std::vector<int> writerStream(graph.op_size(), -1);
  auto touch = [&](int task, std::pair<bool, Buffer> b) {
    if (b.first)
      accesses[task].push_back(
          {b.second, workspace[b.second].first, workspace[b.second].second});
  };
  const om::OpDef *netOutput = nullptr;
  for (const om::OpDef &op : graph.op())
    if (op.type() == "NetOutput")
      netOutput = &op;
  for (int t = 0; t < n; ++t) {
    const om::TaskDef &task = tasks[t];
    if (task.type() == om::KERNEL) {
      const om::OpDef &op = graph.op(task.op_index());
      for (const std::string &in : op.input())
        touch(t, bufferOf(in));
      for (int k = 0; k < op.output_desc_size(); ++k)
        touch(t, {true, Buffer{task.op_index(), uint32_t(k)}});
      writerStream[task.op_index()] = task.stream_id();
    } else if (task.type() == om::MEMCPY_ASYNC) {
      if (task.src().kind() == om::MemRef::INPUT) {
        touch(t, {true, Buffer{task.op_index(), 0}});
        writerStream[task.op_index()] = task.stream_id();
      } else if (task.dst().kind() == om::MemRef::OUTPUT) {
        touch(t, bufferOf(netOutput->input(int(task.dst().index()))));
      }
    }
  }

  // Edges go forward in task order, so the closure is one backward sweep.
  std::vector<std::vector<int>> next(n);
  std::map<uint32_t, int> lastOnStream, latestRecord;
  for (int t = 0; t < n; ++t) {
    const om::TaskDef &task = tasks[t];
    auto prev = lastOnStream.find(task.stream_id());
    if (prev != lastOnStream.end())
      next[prev->second].push_back(t);
    lastOnStream[task.stream_id()] = t;
    if (task.type() == om::EVENT_RECORD)
      latestRecord[task.event_id()] = t;
    if (task.type() == om::EVENT_WAIT && latestRecord.count(task.event_id()))
      next[latestRecord[task.event_id()]].push_back(t);
  }
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));
  for (int t = n - 1; t >= 0; --t)
    for (int s : next[t]) {
      reaches[t][s] = true;
      for (int u = 0; u < n; ++u)
        if (reaches[s][u])
          reaches[t][u] = true;
    }

  TaskOrderReport report;
  auto overlap = [](const Access &a, const Access &b) {
    return a.buffer != b.buffer && a.begin < b.end && b.begin < a.end;
  };
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b)
      for (const Access &x : accesses[a])
        for (const Access &y : accesses[b])
          if (overlap(x, y) && (a == b || !reaches[a][b]))
            report.violations.push_back(
                "tasks " + std::to_string(a) + " and " + std::to_string(b) +
                " touch op " + std::to_string(x.buffer.first) + ":" +
                std::to_string(x.buffer.second) + " and op " +
                std::to_string(y.buffer.first) + ":" +
                std::to_string(y.buffer.second) +
                ", which share bytes, "
                "unordered");
  std::vector<std::pair<Buffer, std::pair<int64_t, int64_t>>> placed(
      workspace.begin(), workspace.end());
  for (size_t i = 0; i < placed.size(); ++i)
    for (size_t j = i + 1; j < placed.size(); ++j)
      if (placed[i].second.first < placed[j].second.second &&
          placed[j].second.first < placed[i].second.second &&
          writerStream[placed[i].first.first] !=
              writerStream[placed[j].first.first])
        ++report.crossStreamReuse;
  return report;
}

} // namespace geflow::passes::fixtures

#endif // GEFLOW_TESTS_UNIT_PASSES_TASKORDERCHECK_H
