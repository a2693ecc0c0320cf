//===- OmModel.h - An OM artifact in memory -------------------*- C++ -*-===//
//
// What the compiler hands to the OM writer and the loader hands to the
// executor. The file format (header, partition table, checksums) is
// OmFormat.h's business.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OMMODEL_H
#define GEFLOW_EXECUTOR_MODEL_OMMODEL_H

#include "executor/model/om.pb.h"
#include "runtime/support/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace geflow::om {

class OutputFiles;

/// Every constant starts at a multiple of this in WEIGHTS, so the partition can
/// be mapped and handed to kernels (and packed SIMD loads) without copying.
inline constexpr uint64_t kWeightAlignment = 64;

/// A constant that the compiler left where it already was (an imported
/// model's mapping) instead of copying it into OmModel::weights: the writer
/// copies it once, straight into the file, and no 45 MB buffer is faulted in.
struct BorrowedWeight {
  uint64_t offset = 0; // in WEIGHTS, kWeightAlignment-aligned
  std::string_view bytes;
};

/// The artifact as the compiler builds it.
struct OmModel {
  std::string socName; // the preset the model was compiled for
  ModelDef modelDef; // one GraphDef: Data, Const, compute, Send/Recv, NetOutput
  /// WEIGHTS up to the first borrowed constant (all of it when none is).
  std::vector<uint8_t> weights;
  /// The rest of WEIGHTS in offset order, from weights.size() on, zeros
  /// between them and up to the aligned end. `keepAlive` owns the memory
  /// they point into.
  std::vector<BorrowedWeight> borrowedWeights;
  std::shared_ptr<const void> keepAlive;
  ModelTaskDef taskDef;
  MemoryPlan memoryPlan;

  /// Bytes of WEIGHTS, borrowed constants included.
  uint64_t weightsSize() const;
  /// WEIGHTS as consecutive pieces: `weights`, then each borrowed constant
  /// after the zeros before it, then the zeros that align the end.
  std::vector<std::string_view> weightsPieces() const;
};

/// Caps on what an OM file may declare, checked before anything of that size
/// is allocated: a file may declare any size. The library imposes none by
/// default; geflow's --max-model-bytes, --max-tensor-bytes, --max-nodes and
/// --max-workspace-bytes set them (tools/geflow/Limits.h).
struct OmLimits {
  uint64_t maxModelBytes = UINT64_MAX;     // the file
  uint64_t maxTensorBytes = UINT64_MAX;    // one tensor descriptor
  uint64_t maxOps = UINT64_MAX;            // ops of the graph
  uint64_t maxWorkspaceBytes = UINT64_MAX; // MEMORY's workspace_size
};

/// Whether writeOmFile runs the loader's checks (validateOmModel) first.
enum class OmWriteCheck {
  kValidate, // refuse to write what the loader would refuse to read
  /// The caller has validated this very model, unchanged since: the compiler
  /// does right after emission, and on a 100k-op graph the checks cost about
  /// as much as emission itself.
  kAlreadyValidated,
};

/// Writes `model` to `path` atomically: a temporary file in the same folder,
/// renamed over `path` only when complete. Errors name the path. With
/// `staging`, the file is only staged there, to be committed with the
/// command's other outputs.
rt::Status writeOmFile(const OmModel &model, const std::string &path,
                       OutputFiles *staging = nullptr,
                       OmWriteCheck check = OmWriteCheck::kValidate);

/// The artifact as the loader returns it: everything validated, weights mapped
/// read-only from the file (or held in memory for loadOmBytes).
class LoadedOm {
public:
  virtual ~LoadedOm();
  virtual const std::string &socName() const = 0;
  virtual const ModelDef &modelDef() const = 0;
  virtual const GraphDef &graph() const = 0;
  virtual const ModelTaskDef &taskDef() const = 0;
  virtual const MemoryPlan &memoryPlan() const = 0;
  virtual const uint8_t *weights() const = 0;
  virtual uint64_t weightsSize() const = 0;
  /// Lets the system take back the pages wholly inside weights()[offset,
  /// offset + bytes): kernels that packed those weights at load no longer
  /// read them. In a file mapping a later read brings them back from the
  /// file; weights held in memory (loaded from bytes) keep their pages.
  virtual void dropWeightPages(uint64_t offset, uint64_t bytes) const {}

  /// Compiled programs: one per gear of modelDef().gears(), 1 for a static
  /// model.
  virtual size_t gearCount() const = 0;
  /// Gear i's program as a static model (graph[i], TASK_INFO and MEMORY
  /// gear[i]) over the same weights. A static model's gear(0) is itself.
  virtual const LoadedOm &gear(size_t i) const = 0;
};

/// Loads and validates an OM file: magic, format version, sizes, partition
/// table, checksums, and every index and offset inside the partitions. Each
/// failure is a distinct one-line message naming the file and what is wrong.
/// Anything over `limits` is an error naming the limit's flag.
rt::Status loadOmFile(const std::string &path, std::unique_ptr<LoadedOm> *out,
                      const OmLimits &limits = {});
rt::Status loadOmBytes(const std::string &bytes, const std::string &sourceName,
                       std::unique_ptr<LoadedOm> *out,
                       const OmLimits &limits = {});

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OMMODEL_H
