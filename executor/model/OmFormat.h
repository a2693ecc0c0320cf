//===- OmFormat.h - The OM file: header, partition table, checksums -*- C++
//-*-===//
//
// GE's layout: a fixed 256-byte header, then a partition table, then the
// partitions. All integers are little-endian. Offsets are from the start of
// the file.
//
//   offset size  field
//   0      8     magic "GEFLOWOM"
//   8      4     format version (kOmFormatVersion)
//   12     4     header size (256)
//   16     32    producer version, NUL-padded ("geflow 0.1.0")
//   48     64    SoC name, NUL-padded ("ascend910b-sim")
//   112    4     partition count
//   116    4     flags (0)
//   120    8     total file size
//   128    8     partition table offset (256)
//   136    8     partition table checksum (XXH3-64 of the table)
//   144    104   reserved, zero
//   248    8     header checksum (XXH3-64 of bytes 0..247)
//
// Partition table entry, 32 bytes: type u32, reserved u32, offset u64,
// size u64, checksum u64 (XXH3-64 of the partition's bytes).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OMFORMAT_H
#define GEFLOW_EXECUTOR_MODEL_OMFORMAT_H

#include "executor/model/OmModel.h"
#include "executor/model/OutputFiles.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace geflow::om {

inline constexpr char kOmMagic[8] = {'G', 'E', 'F', 'L', 'O', 'W', 'O', 'M'};
/// 2: XXH3-64 checksums (1 had FNV-1a 64).
inline constexpr uint32_t kOmFormatVersion = 2;
inline constexpr uint32_t kOmHeaderSize = 256;
inline constexpr uint32_t kOmPartitionEntrySize = 32;
inline constexpr uint32_t kOmProducerVersionSize = 32;
inline constexpr uint32_t kOmSocNameSize = 64;
/// The producer version written into every header.
inline constexpr const char *kOmProducerVersion = "geflow 0.1.0";

// Header field offsets.
inline constexpr size_t kHdrMagic = 0;
inline constexpr size_t kHdrFormatVersion = 8;
inline constexpr size_t kHdrHeaderSize = 12;
inline constexpr size_t kHdrProducerVersion = 16;
inline constexpr size_t kHdrSocName = 48;
inline constexpr size_t kHdrPartitionCount = 112;
inline constexpr size_t kHdrFlags = 116;
inline constexpr size_t kHdrTotalSize = 120;
inline constexpr size_t kHdrTableOffset = 128;
inline constexpr size_t kHdrTableChecksum = 136;
inline constexpr size_t kHdrChecksum = 248;

/// GE's ModelPartitionType, in the order the writer lays them out.
enum class PartitionType : uint32_t {
  kModelDef = 0,
  kWeights = 1,
  kTaskInfo = 2,
  kMemory = 3,
};
inline constexpr uint32_t kOmPartitionCount = 4;
/// "MODEL_DEF", "WEIGHTS", "TASK_INFO", "MEMORY", or "UNKNOWN".
const char *partitionTypeName(PartitionType type);

struct PartitionEntry {
  PartitionType type = PartitionType::kModelDef;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t checksum = 0;
};

/// XXH3-64 (seed 0) over `size` bytes.
uint64_t omChecksum(const void *data, size_t size);
/// omChecksum of the pieces' bytes back to back.
uint64_t omChecksum(const std::vector<std::string_view> &pieces);

/// The whole file's bytes, headers and checksums included. No semantic
/// validation (see validateOmModel); fails only on what cannot be encoded
/// (a SoC name longer than the header field, a message protobuf refuses).
rt::Status serializeOm(const OmModel &model, std::string *out);

/// Bytes per element of `dtype`; 0 for DT_UNDEFINED and unknown numbers.
size_t dataTypeBytes(DataType dtype);

/// GE's cap on a kernel's block_dim; more would only be simulated waves.
inline constexpr uint32_t kMaxBlockDim = 65535;
/// Cap on a task's flops and bytes: far beyond any kernel, and small enough
/// that its simulated time stays a 64-bit count of nanoseconds.
inline constexpr double kMaxTaskCost = 1e18;

/// Every index and offset of the partitions: tasks, memory plan, graph
/// references, weights, tensor descriptors, and the sizes `limits` caps.
/// Messages start with "<sourceName>: ".
rt::Status validateOmModel(const ModelDef &modelDef, const ModelTaskDef &tasks,
                           const MemoryPlan &memory, uint64_t weightsSize,
                           const std::string &sourceName,
                           const OmLimits &limits = {});
/// The part of validateOmModel for a RUNTIME_SHAPES model (GearTable): a
/// source model, graph[0] only Data ops and one NetOutput describing the
/// graph's inputs and outputs (-1 for a dim known at run time, {-2} for an
/// unknown rank), no tasks, no memory plan, no weights.
rt::Status validateRuntimeShapesModel(const ModelDef &modelDef,
                                      const ModelTaskDef &tasks,
                                      const MemoryPlan &memory,
                                      uint64_t weightsSize,
                                      const std::string &sourceName,
                                      const OmLimits &limits = {});
inline rt::Status validateOmModel(const OmModel &model,
                                  const std::string &sourceName) {
  return validateOmModel(model.modelDef, model.taskDef, model.memoryPlan,
                         model.weightsSize(), sourceName);
}

/// GE's structural op types: the graph's inputs, its weights, its outputs and
/// the event ops between streams. They have no kernel; any other OpDef type
/// is a compute op. The emitter, the validator and the executor must agree on
/// the spelling, so they all take it from here.
inline constexpr std::string_view kDataType = "Data";
inline constexpr std::string_view kConstType = "Const";
inline constexpr std::string_view kSendType = "Send";
inline constexpr std::string_view kRecvType = "Recv";
inline constexpr std::string_view kNetOutputType = "NetOutput";

/// True for the structural op types above.
bool isStructuralOpType(const std::string &type);

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OMFORMAT_H
