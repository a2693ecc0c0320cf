//===- OmModel.h - An OM artifact in memory -------------------*- C++ -*-===//
//
// What the compiler hands to the OM writer and the loader hands to the executor.
// The file format (header, partition table, checksums) is OmFormat.h's business.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OMMODEL_H
#define GEFLOW_EXECUTOR_MODEL_OMMODEL_H

#include "executor/model/om.pb.h"
#include "runtime/support/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace geflow::om {

/// Every constant starts at a multiple of this in WEIGHTS, so the partition can
/// be mapped and handed to kernels (and packed SIMD loads) without copying.
inline constexpr uint64_t kWeightAlignment = 64;

/// The artifact as the compiler builds it.
struct OmModel {
  std::string socName;      // the preset the model was compiled for
  ModelDef modelDef;        // one GraphDef: Data, Const, compute, Send/Recv, NetOutput
  std::vector<uint8_t> weights;
  ModelTaskDef taskDef;
  MemoryPlan memoryPlan;
};

/// Writes `model` to `path` atomically: a temporary file in the same folder,
/// renamed over `path` only when complete. Errors name the path.
rt::Status writeOmFile(const OmModel &model, const std::string &path);

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
};

/// Loads and validates an OM file: magic, format version, sizes, partition
/// table, checksums, and every index and offset inside the partitions. Each
/// failure is a distinct one-line message naming the file and what is wrong.
rt::Status loadOmFile(const std::string &path, std::unique_ptr<LoadedOm> *out);
rt::Status loadOmBytes(const std::string &bytes, const std::string &sourceName,
                       std::unique_ptr<LoadedOm> *out);

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OMMODEL_H
