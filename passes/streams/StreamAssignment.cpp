//===- StreamAssignment.cpp - logical streams for a task graph ------------===//

#include "passes/streams/StreamAssignment.h"

#include "passes/PassSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

namespace geflow::passes {
namespace {

/// AICPU and DVPP work beside the AI cores: GE gives such engines streams of
/// their own (its "independent" engines).
bool runsApart(rt::Engine engine) {
  return engine == rt::Engine::kAiCpu || engine == rt::Engine::kDvpp;
}

/// Raw stream 0 is the main stream, 1 + k the stream of label k; streams the
/// automatic split opens follow.
int baseStream(const TaskNode &node) {
  return node.label < 0 ? 0 : 1 + node.label;
}

/// An assignment under construction: raw stream ids, and for every stream
/// the split opened, the stream it forked from (where a merge sends it).
struct Split {
  std::vector<int> streamOf;
  std::vector<int> parent; // per raw stream; -1 for base streams
  std::vector<bool> mergeable;

  explicit Split(const TaskGraph &graph)
      : streamOf(graph.nodes.size(), 0), parent(1 + graph.labels.size(), -1),
        mergeable(1 + graph.labels.size(), false) {}

  int open(int forkedFrom) {
    parent.push_back(forkedFrom);
    mergeable.push_back(true);
    return int(parent.size()) - 1;
  }

  /// The stream `s` ends up in after the merges so far.
  int resolve(int s) const {
    while (parent[s] >= 0 && !mergeable[s])
      s = parent[s];
    return s;
  }

  /// Moves every node of `s` to the stream it forked from.
  void merge(int s) {
    mergeable[s] = false;
    int target = resolve(s);
    for (int &stream : streamOf)
      if (stream == s)
        stream = target;
  }

  std::vector<int> liveMergeable() const {
    std::vector<int> live;
    for (size_t s = 0; s < parent.size(); ++s)
      if (mergeable[s] && llvm::is_contained(streamOf, int(s)))
        live.push_back(int(s));
    return live;
  }
};

std::vector<int> labelsOnly(const TaskGraph &graph) {
  std::vector<int> streamOf;
  for (const TaskNode &node : graph.nodes)
    streamOf.push_back(baseStream(node));
  return streamOf;
}

/// GE's assignment by dependency (see the file comment of the header).
Split splitByDependency(const TaskGraph &graph,
                        const StreamAssignmentOptions &options) {
  Split split(graph);
  size_t n = graph.nodes.size();
  // Successors of each node, counted per engine.
  std::vector<std::array<int, rt::kNumEngines>> successors(n);
  for (auto &counts : successors)
    counts.fill(0);
  for (const TaskNode &node : graph.nodes) {
    std::vector<int> deps = node.deps;
    llvm::sort(deps);
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (int dep : deps)
      ++successors[dep][int(node.engine)];
  }

  std::vector<bool> baseUsed(1 + graph.labels.size(), false);
  std::map<std::pair<int, int>, int> apartStream; // (base, engine) -> stream
  // Streams the split opened, per (base, engine), with their node counts.
  std::map<std::pair<int, int>, std::vector<int>> opened;
  std::vector<int> load;
  auto assign = [&](size_t i, int stream) {
    split.streamOf[i] = stream;
    if (size_t(stream) >= load.size())
      load.resize(stream + 1, 0);
    ++load[stream];
  };

  for (size_t i = 0; i < n; ++i) {
    const TaskNode &node = graph.nodes[i];
    int base = baseStream(node);
    if (node.label >= 0 && !node.innerParallel) {
      assign(i, base);
      continue;
    }
    if (runsApart(node.engine)) {
      auto [it, inserted] =
          apartStream.try_emplace({base, int(node.engine)}, -1);
      if (inserted)
        it->second = split.open(base);
      assign(i, it->second);
      continue;
    }
    // Continue the latest predecessor of the same scope whose only successor
    // of this engine is this node.
    int continued = -1, latestDep = -1;
    for (int dep : node.deps) {
      const TaskNode &producer = graph.nodes[dep];
      if (producer.label != node.label || runsApart(producer.engine))
        continue;
      latestDep = std::max(latestDep, dep);
      if (successors[dep][int(node.engine)] == 1)
        continued = std::max(continued, dep);
    }
    if (continued >= 0) {
      assign(i, split.streamOf[continued]);
    } else if (!baseUsed[base]) {
      baseUsed[base] = true;
      assign(i, base);
    } else {
      std::vector<int> &mine = opened[{base, int(node.engine)}];
      if (mine.size() < options.maxParallelPerEngine) {
        int forkedFrom = latestDep >= 0 ? split.streamOf[latestDep] : base;
        mine.push_back(split.open(forkedFrom));
        assign(i, mine.back());
      } else {
        assign(i, *llvm::min_element(
                      mine, [&](int a, int b) { return load[a] < load[b]; }));
      }
    }
  }
  return split;
}

/// Dense ids: the main stream 0, the others in order of their first node.
StreamAssignment compact(const TaskGraph &graph,
                         const std::vector<int> &streamOf) {
  std::map<int, int> ids;
  if (llvm::is_contained(streamOf, 0))
    ids[0] = 0;
  for (int s : streamOf)
    ids.try_emplace(s, int(ids.size()));
  StreamAssignment result;
  for (int s : streamOf)
    result.streamOf.push_back(ids[s]);
  result.streamCount = std::max<int>(graph.nodes.empty() ? 1 : 0, ids.size());
  return result;
}

int distinctStreams(const std::vector<int> &streamOf) {
  std::vector<int> sorted = streamOf;
  llvm::sort(sorted);
  return int(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

} // namespace

llvm::StringRef streamModeName(StreamMode mode) {
  switch (mode) {
  case StreamMode::kSingle:
    return "single";
  case StreamMode::kLabel:
    return "label";
  case StreamMode::kAuto:
    return "auto";
  }
  return "auto";
}

std::optional<StreamMode> parseStreamMode(llvm::StringRef name) {
  for (StreamMode mode :
       {StreamMode::kSingle, StreamMode::kLabel, StreamMode::kAuto})
    if (name == streamModeName(mode))
      return mode;
  return std::nullopt;
}

llvm::Expected<StreamAssignment>
assignStreams(const TaskGraph &graph, const StreamAssignmentOptions &options,
              MakespanPredictor &predictor) {
  if (options.mode == StreamMode::kSingle) {
    for (const TaskNode &node : graph.nodes)
      if (node.label >= 0)
        return makeError(llvm::formatv(
            "node '{0}': _user_stream_label '{1}' needs its own stream, but "
            "--streams single puts every op on one stream",
            node.name, graph.labels[node.label]));
    return compact(graph, std::vector<int>(graph.nodes.size(), 0));
  }

  std::vector<int> labelStreams = labelsOnly(graph);
  int labelCount = distinctStreams(labelStreams);
  if (options.maxStreams && uint32_t(labelCount) > options.maxStreams)
    return makeError(llvm::formatv(
        "the user stream labels need {0} streams but --max-streams is {1}",
        labelCount, options.maxStreams));
  if (options.mode == StreamMode::kLabel)
    return compact(graph, labelStreams);

  Split split = splitByDependency(graph, options);
  double single =
      predictor.predictNs(graph, std::vector<int>(graph.nodes.size(), 0));
  double labels =
      graph.labels.empty() ? single : predictor.predictNs(graph, labelStreams);
  double current = predictor.predictNs(graph, split.streamOf);
  if (single < 0 || labels < 0 || current < 0)
    return makeError("internal error: the makespan prediction failed");

  // Merge back every stream that does not earn its keep, the least loaded
  // first (they are the likeliest to be dead weight).
  auto byLoad = [&](std::vector<int> streams) {
    std::map<int, int> load;
    for (int s : split.streamOf)
      ++load[s];
    llvm::stable_sort(streams, [&](int a, int b) { return load[a] < load[b]; });
    return streams;
  };
  for (int stream : byLoad(split.liveMergeable())) {
    Split trial = split;
    trial.merge(stream);
    double without = predictor.predictNs(graph, trial.streamOf);
    if (without >= 0 && current > (1 - options.minGain) * without) {
      split = std::move(trial);
      current = without;
    }
  }
  // Only the split's own streams are merged: the labels fit (checked above).
  while (options.maxStreams &&
         uint32_t(distinctStreams(split.streamOf)) > options.maxStreams) {
    std::vector<int> live = byLoad(split.liveMergeable());
    if (live.empty())
      break;
    split.merge(live.front());
    current = predictor.predictNs(graph, split.streamOf);
  }

  StreamAssignment result;
  if (current > (1 - options.minGain) * labels) {
    result = compact(graph, labelStreams);
    current = labels;
  } else {
    result = compact(graph, split.streamOf);
  }
  result.singleNs = single;
  result.labelsOnlyNs = labels;
  result.chosenNs = current;
  return result;
}

} // namespace geflow::passes
