//===- MakespanPredictor.cpp - time a stream assignment on the simulator --===//

#include "passes/streams/MakespanPredictor.h"

#include "passes/streams/HappensBefore.h"

#include "runtime/Device.h"

#include <algorithm>

#include <cstdlib>
#include <map>
#include <string>

namespace geflow::passes {

MakespanPredictor::MakespanPredictor(const rt::SocSpec &spec,
                                     uint32_t aicoreNum, uint32_t vectorcoreNum)
    : spec_(spec), aicoreNum_(aicoreNum), vectorcoreNum_(vectorcoreNum) {}

double MakespanPredictor::predictNs(const TaskGraph &graph,
                                    const std::vector<int> &streamOf,
                                    std::vector<double> *endNs) {
  rt::DeviceOptions options;
  options.spec = spec_;
  // Cost-only kernels never reach a host worker.
  options.workerThreads = 1;
  std::unique_ptr<rt::Device> device;
  if (!rt::Device::create(options, &device).isOk())
    return -1;
  device->setTraceEnabled(endNs != nullptr);

  std::map<int, rt::Stream *> streams;
  auto streamFor = [&](size_t node) -> rt::Stream * {
    auto [it, inserted] = streams.try_emplace(streamOf[node], nullptr);
    if (inserted &&
        !device->createStream(int32_t(graph.nodes[node].priority), &it->second)
             .isOk())
      return nullptr;
    return it->second;
  };

  // The waits event insertion keeps (passes/InsertEvents.cpp): latest
  // producer first, none that the stream's own order and earlier waits
  // already imply, so that the prediction times the task list `geflow run`
  // will see.
  std::map<int, uint32_t> dense;
  for (int s : streamOf)
    dense.try_emplace(s, uint32_t(dense.size()));
  HappensBefore order(uint32_t(dense.size()));
  std::vector<std::vector<int>> waitsFor(graph.nodes.size());
  std::vector<bool> recordsEvent(graph.nodes.size(), false);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    uint32_t stream = dense[streamOf[i]];
    std::vector<int> deps = graph.nodes[i].deps;
    std::sort(deps.rbegin(), deps.rend());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (int dep : deps)
      if (streamOf[dep] != streamOf[i] &&
          order.orderBeforeNext(HappensBefore::TaskId(dep), stream)) {
        waitsFor[i].push_back(dep);
        recordsEvent[dep] = true;
      }
    order.addTask(stream);
  }

  std::vector<rt::Event *> doneEvent(graph.nodes.size(), nullptr);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const TaskNode &node = graph.nodes[i];
    rt::Stream *stream = streamFor(i);
    if (!stream)
      return -1;
    for (int dep : waitsFor[i])
      if (!device->streamWaitEvent(stream, doneEvent[dep]).isOk())
        return -1;
    // A no-task op (a view) only passes its waits on.
    if (!node.noTask) {
      rt::KernelLaunch launch;
      // Traced, the name says which node a record is.
      launch.name = endNs ? std::to_string(i) : node.name;
      launch.engine = node.engine;
      launch.blockDim = node.blockDim;
      launch.cost = node.cost;
      launch.aicoreNum = node.aicoreNum ? node.aicoreNum : aicoreNum_;
      launch.vectorcoreNum =
          node.vectorcoreNum ? node.vectorcoreNum : vectorcoreNum_;
      if (!device->launchKernel(stream, std::move(launch)).isOk())
        return -1;
    }
    if (recordsEvent[i] && (!device->createEvent(&doneEvent[i]).isOk() ||
                            !device->recordEvent(doneEvent[i], stream).isOk()))
      return -1;
  }
  if (!device->synchronizeDevice().isOk())
    return -1;
  if (endNs) {
    endNs->assign(graph.nodes.size(), 0);
    for (const rt::TaskRecord &record : device->traceRecords())
      if (size_t i = std::strtoul(record.name.c_str(), nullptr, 10);
          record.kind == rt::TaskKind::kKernel && i < endNs->size())
        (*endNs)[i] = double(record.endNs);
    for (size_t i = 0; i < graph.nodes.size(); ++i)
      if (graph.nodes[i].noTask)
        for (int dep : graph.nodes[i].deps)
          (*endNs)[i] = std::max((*endNs)[i], (*endNs)[dep]);
  }
  return double(device->now());
}

} // namespace geflow::passes
