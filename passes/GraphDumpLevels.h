//===- GraphDumpLevels.h - What a graph dump holds and when ------*- C++
//-*-===//
//
// CANN's DUMP_GE_GRAPH chooses what each dumped graph holds and
// DUMP_GRAPH_LEVEL after which stages it is written (tools/driver/DumpEnv.h
// reads them). `geflow compile --dump-graph` alone is {kAll, kDefault}.
// Apart from the options struct so that Pipeline.h stays free of MLIR's
// instrumentation headers.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_GRAPHDUMPLEVELS_H
#define GEFLOW_PASSES_GRAPHDUMPLEVELS_H

namespace geflow::passes {

/// DUMP_GE_GRAPH=1|2|3.
enum class DumpContent {
  kAll = 1,       // every attribute, constant tensors included
  kNoWeights = 2, // tensor-valued attributes left out
  kRelations = 3, // op names, types, inputs and streams only
};

/// DUMP_GRAPH_LEVEL=1|2|3|4.
enum class DumpStages {
  kEvery = 1,    // after every pass, besides the stages
  kDefault = 2,  // import, each stage, the built model
  kFinal = 3,    // the built model only
  kEarliest = 4, // the imported graph only
};

struct GraphDumpLevels {
  DumpContent content = DumpContent::kAll;
  DumpStages stages = DumpStages::kDefault;
};

} // namespace geflow::passes

#endif // GEFLOW_PASSES_GRAPHDUMPLEVELS_H
