//===- StreamPlan.h - where the user says the model's ops go -----*- C++
//-*-===//
//
// A stream plan is a JSON file (format: frontends/README.md) that puts ONNX
// nodes, selected by name glob, on user streams with a priority, an
// inner-parallel switch and a core limit, and orders tensors with torchair's
// npu_wait_tensor. The reader validates it completely; every error is one line
// naming the file, the line and the key: `plan.json:7: scopes[1].priority: must
// be an integer >= 0, got -2`. Applying a plan to a graph is the importer's job
// (frontends/onnx).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_STREAMPLAN_STREAMPLAN_H
#define GEFLOW_FRONTENDS_STREAMPLAN_STREAMPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace geflow::streamplan {

/// Where a value was written: its line and its key path (`scopes[1].priority`).
struct PlanSite {
  unsigned line = 0;
  std::string path;
};

/// One entry of a scope's `nodes`. llvm::GlobPattern keeps a reference into the
/// text it was made from, so the text sits on the heap, shared by copies.
class NodeGlob {
public:
  static llvm::Expected<NodeGlob> create(llvm::StringRef text, PlanSite site);

  llvm::StringRef text() const { return *source; }
  const PlanSite &site() const { return where; }
  bool matches(llvm::StringRef nodeName) const {
    return pattern.match(nodeName);
  }

private:
  NodeGlob(std::shared_ptr<const std::string> source, llvm::GlobPattern pattern,
           PlanSite where)
      : source(std::move(source)), pattern(std::move(pattern)),
        where(std::move(where)) {}

  std::shared_ptr<const std::string> source;
  llvm::GlobPattern pattern;
  PlanSite where;
};

/// `limit_core_num: [aic, aiv]`.
struct CoreLimit {
  int64_t aicoreNum = 0;
  int64_t vectorcoreNum = 0;
};

/// One entry of `scopes`. A key the scope leaves out is unset, except that a
/// scope with a stream_tag gets priority 0 and inner parallel on by default.
struct Scope {
  std::vector<NodeGlob> nodes;
  std::optional<std::string> streamTag;
  std::optional<int64_t> priority;
  std::optional<bool> innerParallel;
  std::optional<CoreLimit> coreLimit;
  PlanSite site;
};

/// One entry of `wait_tensor`: the consumers of `tensor` wait until the
/// producer of `after` has finished.
struct WaitTensor {
  std::string tensor;
  PlanSite tensorSite;
  std::string after;
  PlanSite afterSite;
};

/// What the plan says about one node, every scope that selects it merged in
/// file order (a later scope's keys replace an earlier one's).
struct NodeSettings {
  std::optional<std::string> streamTag;
  std::optional<int64_t> priority;
  std::optional<bool> innerParallel;
  std::optional<CoreLimit> coreLimit;

  bool empty() const {
    return !streamTag && !priority && !innerParallel && !coreLimit;
  }
};

struct StreamPlan {
  /// The file name used in messages.
  std::string sourceName;
  std::vector<Scope> scopes;
  std::vector<WaitTensor> waits;

  NodeSettings settingsFor(llvm::StringRef nodeName) const;

  /// Fails on the first glob that selects none of `nodeNames`: a plan written
  /// for another model (or a typo) must not pass silently.
  llvm::Error
  checkEveryGlobMatches(llvm::ArrayRef<llvm::StringRef> nodeNames) const;

  /// `SOURCE:LINE: PATH: message`.
  llvm::Error error(const PlanSite &site, const llvm::Twine &message) const;
};

/// Reads and validates a plan held in memory; `sourceName` names it in errors.
llvm::Expected<StreamPlan> parseStreamPlan(llvm::StringRef text,
                                           llvm::StringRef sourceName);

/// Reads and validates the plan file at `path`.
llvm::Expected<StreamPlan> readStreamPlanFile(llvm::StringRef path);

} // namespace geflow::streamplan

#endif // GEFLOW_FRONTENDS_STREAMPLAN_STREAMPLAN_H
