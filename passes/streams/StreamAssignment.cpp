//===- StreamAssignment.cpp - logical streams for a task graph ------------===//

#include "passes/streams/StreamAssignment.h"

#include "passes/PassSupport.h"
#include "passes/streams/BlockDims.h"
#include "passes/streams/LowerBound.h"

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

/// Critical path first (HEFT's upward rank): every node's estimated finish
/// with unlimited cores, and its heir, the successor in its scope with the
/// longest path to the end -- the one that continues the node's stream, so
/// the critical path runs on one stream and waits for no event.
struct Ranks {
  std::vector<double> finish;
  std::vector<int> heir;
};

Ranks rankNodes(const TaskGraph &graph, const std::vector<double> &alone) {
  size_t n = graph.nodes.size();
  Ranks ranks{std::vector<double>(n, 0), std::vector<int>(n, -1)};
  for (size_t i = 0; i < n; ++i) {
    double start = 0;
    for (int dep : graph.nodes[i].deps)
      start = std::max(start, ranks.finish[dep]);
    ranks.finish[i] = start + alone[i];
  }
  // Last node first, so that on ties the earliest successor inherits.
  std::vector<double> bottom = bottomLevelsNs(graph, alone);
  std::vector<double> heirBottom(n, -1);
  for (size_t j = n; j-- > 0;) {
    const TaskNode &node = graph.nodes[j];
    for (int dep : node.deps) {
      const TaskNode &producer = graph.nodes[dep];
      if (producer.label == node.label && !runsApart(producer.engine) &&
          !runsApart(node.engine) && bottom[j] >= heirBottom[dep]) {
        heirBottom[dep] = bottom[j];
        ranks.heir[dep] = int(j);
      }
    }
  }
  return ranks;
}

/// GE's assignment by dependency (see the file comment of the header), with
/// the critical successor continuing its predecessor's stream.
Split splitByDependency(const TaskGraph &graph,
                        const StreamAssignmentOptions &options,
                        const std::vector<double> &alone) {
  Split split(graph);
  size_t n = graph.nodes.size();
  Ranks ranks = rankNodes(graph, alone);

  std::vector<bool> baseUsed(1 + graph.labels.size(), false);
  std::map<std::pair<int, int>, int> apartStream; // (base, engine) -> stream
  // Streams the split opened, per (base, engine).
  std::map<std::pair<int, int>, std::vector<int>> opened;
  // Per stream, the estimated finish of its last node.
  std::vector<double> lastFinish;
  auto assign = [&](size_t i, int stream) {
    split.streamOf[i] = stream;
    if (size_t(stream) >= lastFinish.size())
      lastFinish.resize(stream + 1, 0);
    lastFinish[stream] = std::max(lastFinish[stream], ranks.finish[i]);
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
    // Continue the stream of the latest-finishing predecessor whose heir this
    // node is.
    int continued = -1, latestDep = -1;
    for (int dep : node.deps) {
      const TaskNode &producer = graph.nodes[dep];
      if (producer.label != node.label || runsApart(producer.engine))
        continue;
      latestDep = std::max(latestDep, dep);
      if (ranks.heir[dep] == int(i) &&
          (continued < 0 || ranks.finish[dep] > ranks.finish[continued]))
        continued = dep;
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
        // The stream whose work is estimated to end first.
        assign(i, *llvm::min_element(mine, [&](int a, int b) {
                 return lastFinish[a] < lastFinish[b];
               }));
      }
    }
  }
  return split;
}

/// The block dims of the first policy that beats `current` most (each
/// distinct set timed once by the predictor), or none. Updates `current`.
std::vector<uint32_t> chooseBlockDims(const TaskGraph &graph,
                                      const std::vector<double> &alone,
                                      const std::vector<int> &streamOf,
                                      MakespanPredictor &predictor,
                                      double &current) {
  rt::CostModel cost(predictor.spec());
  std::vector<std::vector<uint32_t>> tried(1);
  for (const TaskNode &node : graph.nodes)
    tried.front().push_back(node.blockDim);
  std::vector<uint32_t> best;
  for (double coreShare : {1.0, 3.0 / 4})
    for (double slackShare : {1.0, 0.75, 0.5}) {
      std::vector<uint32_t> dims = stretchBlockDims(
          graph, alone, cost, BlockDimPolicy{slackShare, coreShare});
      if (llvm::is_contained(tried, dims))
        continue;
      tried.push_back(dims);
      TaskGraph trial = graph;
      for (size_t i = 0; i < dims.size(); ++i)
        trial.nodes[i].blockDim = dims[i];
      double ns = predictor.predictNs(trial, streamOf);
      if (ns >= 0 && ns < current) {
        current = ns;
        best = std::move(dims);
      }
    }
  return best;
}

/// Each join (a node that continues its stream and waits for others) moves,
/// with the rest of its stream, to the stream of the input
/// the simulation (`endNs`) has ending last, where stream order covers that
/// input and no event wait is paid for it. The move relabels the two streams
/// for the rest of the op order, so every other stream order stays. Only
/// streams of the split's own (no user label, no AICPU/DVPP) move. Takes
/// dense ids. With `onlyJoin`, only that node moves.
std::vector<int> rejoinLatest(const TaskGraph &graph,
                              const std::vector<int> &streamOf,
                              const std::vector<double> &endNs,
                              int onlyJoin = -1) {
  size_t n = graph.nodes.size();
  int count = 0;
  for (int s : streamOf)
    count = std::max(count, s + 1);
  std::vector<bool> movable(count, true);
  for (size_t i = 0; i < n; ++i)
    if (graph.nodes[i].label >= 0 || runsApart(graph.nodes[i].engine))
      movable[streamOf[i]] = false;
  // perm: original id -> id from here on; inv: its inverse.
  std::vector<int> perm(count), inv(count), result(n);
  std::iota(perm.begin(), perm.end(), 0);
  inv = perm;
  for (size_t i = 0; i < n; ++i) {
    int s = perm[streamOf[i]];
    // A join: it continues its stream and waits for another.
    int latest = -1;
    bool continues = false;
    for (int dep : graph.nodes[i].deps) {
      continues = continues || result[dep] == s;
      if (latest < 0 || endNs[dep] > endNs[latest])
        latest = dep;
    }
    if ((onlyJoin < 0 || onlyJoin == int(i)) && continues &&
        result[latest] != s && movable[inv[s]] &&
        movable[inv[result[latest]]]) {
      int t = result[latest], a = inv[s], b = inv[t];
      perm[a] = t;
      perm[b] = s;
      inv[t] = a;
      inv[s] = b;
      s = t;
    }
    result[i] = s;
  }
  return result;
}

/// The joins that wait longest for an input on another stream, by how much
/// later (`endNs`) their latest input ends than the last one on their own
/// stream; at most `most`, the longest first.
std::vector<int> costliestJoins(const TaskGraph &graph,
                                const std::vector<int> &streamOf,
                                const std::vector<double> &endNs, size_t most) {
  std::vector<std::pair<double, int>> waits; // (wait, join)
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    double own = -1;
    int latest = -1;
    for (int dep : graph.nodes[i].deps) {
      if (streamOf[dep] == streamOf[i])
        own = std::max(own, endNs[dep]);
      if (latest < 0 || endNs[dep] > endNs[latest])
        latest = dep;
    }
    if (own >= 0 && streamOf[latest] != streamOf[i])
      waits.push_back({endNs[latest] - own, int(i)});
  }
  llvm::stable_sort(
      waits, [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<int> joins;
  for (size_t k = 0; k < waits.size() && k < most; ++k)
    joins.push_back(waits[k].second);
  return joins;
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

/// --streams single: every node on stream 0, which no user label may share.
llvm::Expected<StreamAssignment> singleStream(const TaskGraph &graph) {
  for (const TaskNode &node : graph.nodes)
    if (node.label >= 0)
      return makeError(llvm::formatv(
          "node '{0}': _user_stream_label '{1}' needs its own stream, but "
          "--streams single puts every op on one stream",
          node.name, graph.labels[node.label]));
  return compact(graph, std::vector<int>(graph.nodes.size(), 0));
}

/// The user labels' streams must fit under --max-streams.
llvm::Error checkLabelsFit(const std::vector<int> &labelStreams,
                           const StreamAssignmentOptions &options) {
  int labelCount = distinctStreams(labelStreams);
  if (options.maxStreams && uint32_t(labelCount) > options.maxStreams)
    return makeError(llvm::formatv(
        "the user stream labels need {0} streams but --max-streams is {1}",
        labelCount, options.maxStreams));
  return llvm::Error::success();
}

/// `streams` the least loaded first (they are the likeliest to be dead
/// weight).
std::vector<int> byLoad(const Split &split, std::vector<int> streams) {
  std::map<int, int> load;
  for (int s : split.streamOf)
    ++load[s];
  llvm::stable_sort(streams, [&](int a, int b) { return load[a] < load[b]; });
  return streams;
}

/// Merges back every stream of the split that does not earn its keep, the
/// least loaded first. A stream earns its keep by saving `minGain` of its
/// own work's time: of the whole makespan, a module's branch in a deep
/// network never would. `current` is the split's predicted makespan.
void mergeIdleStreams(const TaskGraph &graph,
                      const StreamAssignmentOptions &options,
                      const std::vector<double> &alone,
                      MakespanPredictor &predictor, Split &split,
                      double &current) {
  for (int stream : byLoad(split, split.liveMergeable())) {
    double work = 0;
    for (size_t i = 0; i < alone.size(); ++i)
      if (split.streamOf[i] == stream)
        work += alone[i];
    Split trial = split;
    trial.merge(stream);
    double without = predictor.predictNs(graph, trial.streamOf);
    if (without >= 0 && current > without - options.minGain * work) {
      split = std::move(trial);
      current = without;
    }
  }
}

/// Merges the least loaded streams until --max-streams holds. Only the
/// split's own streams are merged: the labels fit (checkLabelsFit).
void capStreams(const TaskGraph &graph, const StreamAssignmentOptions &options,
                MakespanPredictor &predictor, Split &split, double &current) {
  while (options.maxStreams &&
         uint32_t(distinctStreams(split.streamOf)) > options.maxStreams) {
    std::vector<int> live = byLoad(split, split.liveMergeable());
    if (live.empty())
      break;
    split.merge(live.front());
    current = predictor.predictNs(graph, split.streamOf);
  }
}

/// Moves every join onto the stream of its latest input at once, up to two
/// rounds, each kept only when the prediction on `chosen` (the graph with
/// the block dims chosen so far) says it pays.
void rejoinAll(const TaskGraph &graph, const TaskGraph &chosen,
               MakespanPredictor &predictor, StreamAssignment &result,
               double &current) {
  for (int round = 0; round < 2; ++round) {
    std::vector<double> endNs;
    predictor.predictNs(chosen, result.streamOf, &endNs);
    StreamAssignment moved =
        compact(graph, rejoinLatest(graph, result.streamOf, endNs));
    if (moved.streamOf == result.streamOf)
      break;
    double ns = predictor.predictNs(chosen, moved.streamOf);
    if (ns < 0 || ns >= current)
      break;
    current = ns;
    result.streamOf = std::move(moved.streamOf);
  }
}

/// Moving every join at once loses where one join's move costs another more
/// than it saves; the joins that wait longest then move one at a time (a
/// fixed number of them, so the step stays linear), each kept when it pays.
void rejoinCostliest(const TaskGraph &graph, const TaskGraph &chosen,
                     const StreamAssignmentOptions &options,
                     MakespanPredictor &predictor, StreamAssignment &result,
                     double &current) {
  std::vector<double> endNs;
  predictor.predictNs(chosen, result.streamOf, &endNs);
  for (int join :
       costliestJoins(graph, result.streamOf, endNs, options.singleRejoins)) {
    StreamAssignment moved =
        compact(graph, rejoinLatest(graph, result.streamOf, endNs, join));
    if (moved.streamOf == result.streamOf)
      continue;
    std::vector<double> movedEndNs;
    double ns = predictor.predictNs(chosen, moved.streamOf, &movedEndNs);
    if (ns < 0 || ns >= current)
      continue;
    current = ns;
    result.streamOf = std::move(moved.streamOf);
    endNs = std::move(movedEndNs);
  }
}

/// Joins onto the stream of their latest input, then fewer blocks where
/// there is slack, twice over: each step is kept only when the prediction
/// says it pays.
void refineJoinsAndBlocks(const TaskGraph &graph,
                          const StreamAssignmentOptions &options,
                          const std::vector<double> &alone,
                          MakespanPredictor &predictor,
                          StreamAssignment &result, double &current) {
  TaskGraph chosen = graph;
  for (int pass = 0; pass < 2; ++pass) {
    rejoinAll(graph, chosen, predictor, result, current);
    rejoinCostliest(graph, chosen, options, predictor, result, current);
    std::vector<uint32_t> dims =
        chooseBlockDims(graph, alone, result.streamOf, predictor, current);
    if (dims.empty())
      break;
    for (size_t i = 0; i < dims.size(); ++i)
      chosen.nodes[i].blockDim = dims[i];
    result.blockDimOf = std::move(dims);
  }
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
  if (options.mode == StreamMode::kSingle)
    return singleStream(graph);
  std::vector<int> labelStreams = labelsOnly(graph);
  if (llvm::Error error = checkLabelsFit(labelStreams, options))
    return std::move(error);
  if (options.mode == StreamMode::kLabel)
    return compact(graph, labelStreams);

  // Auto: GE's split by dependency, then only what the simulation says pays.
  std::vector<double> alone =
      aloneTimesNs(graph, predictor.spec(), predictor.aicoreNum(),
                   predictor.vectorcoreNum());
  Split split = splitByDependency(graph, options, alone);
  double single =
      predictor.predictNs(graph, std::vector<int>(graph.nodes.size(), 0));
  double labels =
      graph.labels.empty() ? single : predictor.predictNs(graph, labelStreams);
  double current = predictor.predictNs(graph, split.streamOf);
  if (single < 0 || labels < 0 || current < 0)
    return makeError("internal error: the makespan prediction failed");
  mergeIdleStreams(graph, options, alone, predictor, split, current);
  capStreams(graph, options, predictor, split, current);

  // The split only where it beats the labels alone by `minGain`.
  StreamAssignment result;
  if (current > (1 - options.minGain) * labels) {
    result = compact(graph, labelStreams);
    current = labels;
  } else {
    result = compact(graph, split.streamOf);
  }
  refineJoinsAndBlocks(graph, options, alone, predictor, result, current);
  result.singleNs = single;
  result.labelsOnlyNs = labels;
  result.chosenNs = current;
  return result;
}

} // namespace geflow::passes
