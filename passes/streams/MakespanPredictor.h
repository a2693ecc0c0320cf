//===- MakespanPredictor.h - time a stream assignment on the simulator -*- C++
//-*-===//
//
// `--streams auto` keeps a stream only where it pays, so it needs the makespan
// a candidate assignment would have. Rather than a second model of the
// hardware, the predictor replays the candidate's kernels, cost only, through
// the runtime's own hardware scheduler (runtime/Scheduler.h): the prediction
// and a later `geflow run` come from the same simulation. A producer read on
// another stream records one event that its readers wait on, except where
// stream order and earlier waits already imply the order: the same reduction
// event insertion makes, so the simulated task lists match.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_MAKESPANPREDICTOR_H
#define GEFLOW_PASSES_STREAMS_MAKESPANPREDICTOR_H

#include "passes/streams/TaskGraph.h"

#include "runtime/soc/SocSpec.h"

#include <vector>

namespace geflow::passes {

class MakespanPredictor {
public:
  /// `aicoreNum`/`vectorcoreNum`: the global core limits (0: the chip's).
  MakespanPredictor(const rt::SocSpec &spec, uint32_t aicoreNum = 0,
                    uint32_t vectorcoreNum = 0);

  /// Virtual nanoseconds from the first launch until every stream is idle,
  /// with node i on stream streamOf[i] (ids need not be dense). Returns a
  /// negative value if the simulation fails (it cannot for a graph whose deps
  /// point backwards). With `endNs`, also each node's simulated end (a
  /// no-task node's: its latest dependency's).
  double predictNs(const TaskGraph &graph, const std::vector<int> &streamOf,
                   std::vector<double> *endNs = nullptr);

  const rt::SocSpec &spec() const { return spec_; }
  uint32_t aicoreNum() const { return aicoreNum_; }
  uint32_t vectorcoreNum() const { return vectorcoreNum_; }

private:
  rt::SocSpec spec_;
  uint32_t aicoreNum_;
  uint32_t vectorcoreNum_;
};

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_MAKESPANPREDICTOR_H
