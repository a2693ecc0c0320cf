//===- OmFormat.cpp - Names and checksums shared by writer and reader -----===//

#include "executor/model/OmFormat.h"

namespace geflow::om {

const char *partitionTypeName(PartitionType type) {
  switch (type) {
  case PartitionType::kModelDef: return "MODEL_DEF";
  case PartitionType::kWeights: return "WEIGHTS";
  case PartitionType::kTaskInfo: return "TASK_INFO";
  case PartitionType::kMemory: return "MEMORY";
  }
  return "UNKNOWN";
}

uint64_t omChecksum(const void *data, size_t size) {
  // FNV-1a 64: no table, no dependency, and any single flipped byte changes it.
  const auto *p = static_cast<const uint8_t *>(data);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

bool isStructuralOpType(const std::string &type) {
  return type == "Data" || type == "Const" || type == "NetOutput" ||
         type == "Send" || type == "Recv";
}

LoadedOm::~LoadedOm() = default;

} // namespace geflow::om
