//===- OmFormat.cpp - Names and checksums shared by writer and reader -----===//

#include "executor/model/OmFormat.h"

#include <xxhash.h>

namespace geflow::om {

const char *partitionTypeName(PartitionType type) {
  switch (type) {
  case PartitionType::kModelDef:
    return "MODEL_DEF";
  case PartitionType::kWeights:
    return "WEIGHTS";
  case PartitionType::kTaskInfo:
    return "TASK_INFO";
  case PartitionType::kMemory:
    return "MEMORY";
  }
  return "UNKNOWN";
}

uint64_t omChecksum(const void *data, size_t size) {
  // XXH3-64: any flipped byte changes it, and it runs at memory speed (the
  // byte-wise FNV-1a it replaced spent ~50 ms on ResNet-18's 45 MB of weights
  // at every compile and every load).
  return XXH3_64bits(data, size);
}

uint64_t omChecksum(const std::vector<std::string_view> &pieces) {
  XXH3_state_t *state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (std::string_view piece : pieces)
    XXH3_64bits_update(state, piece.data(), piece.size());
  uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return sum;
}

size_t dataTypeBytes(DataType dtype) {
  switch (dtype) {
  case DT_FLOAT:
  case DT_INT32:
  case DT_UINT32:
    return 4;
  case DT_FLOAT16:
  case DT_BF16:
  case DT_INT16:
  case DT_UINT16:
    return 2;
  case DT_INT8:
  case DT_UINT8:
  case DT_BOOL:
    return 1;
  case DT_INT64:
  case DT_UINT64:
  case DT_DOUBLE:
    return 8;
  default:
    return 0;
  }
}

bool isStructuralOpType(const std::string &type) {
  return type == kDataType || type == kConstType || type == kNetOutputType ||
         type == kSendType || type == kRecvType;
}

LoadedOm::~LoadedOm() = default;

} // namespace geflow::om
