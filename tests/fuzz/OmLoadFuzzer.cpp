//===- OmLoadFuzzer.cpp - bytes -> OM loader -> validation
//------------------===//
//
// The bytes are an OM file, truncated or tampered with. Each input is loaded
// twice: as it is, and with its checksums recomputed. Random damage almost
// never keeps an XXH3 checksum right, so without the second load the fuzzer
// would only ever explore the checksum checks; with it, damaged partition
// tables, protobufs and indices reach the parser and validateOmModel as they
// would in a file whose writer was wrong rather than whose disk was.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"

#include "google/protobuf/stubs/logging.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

using namespace geflow::om;

namespace {

uint64_t readU64(const std::string &bytes, size_t at) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + at, sizeof v); // little-endian hosts only
  return v;
}

void writeU64(std::string &bytes, size_t at, uint64_t v) {
  std::memcpy(&bytes[at], &v, sizeof v);
}

/// Rewrites every checksum that covers bytes inside the file, innermost
/// first (partitions, table, header), as an honest writer would have.
void resealChecksums(std::string &bytes) {
  if (bytes.size() < kOmHeaderSize)
    return;
  uint32_t count = 0;
  std::memcpy(&count, bytes.data() + kHdrPartitionCount, sizeof count);
  uint64_t table = readU64(bytes, kHdrTableOffset);
  uint64_t tableBytes = uint64_t(count) * kOmPartitionEntrySize;
  if (count <= 64 && table <= bytes.size() &&
      tableBytes <= bytes.size() - table) {
    for (uint32_t i = 0; i < count; ++i) {
      size_t entry = table + size_t(i) * kOmPartitionEntrySize;
      uint64_t offset = readU64(bytes, entry + 8);
      uint64_t size = readU64(bytes, entry + 16);
      if (offset <= bytes.size() && size <= bytes.size() - offset)
        writeU64(bytes, entry + 24, omChecksum(bytes.data() + offset, size));
    }
    writeU64(bytes, kHdrTableChecksum,
             omChecksum(bytes.data() + table, tableBytes));
  }
  writeU64(bytes, kHdrChecksum, omChecksum(bytes.data(), kHdrChecksum));
}

void load(const std::string &bytes) {
  std::unique_ptr<LoadedOm> om;
  if (!loadOmBytes(bytes, "fuzz.om", &om).isOk())
    return;
  // A loaded model is what the executor walks: touch what it touches.
  const GraphDef &graph = om->graph();
  (void)graph.op_size();
  if (om->weightsSize() > 0)
    (void)om->weights()[om->weightsSize() - 1];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // protobuf logs every malformed string field; the statuses say enough.
  static const bool protobufQuiet =
      (google::protobuf::SetLogHandler(nullptr), true);
  (void)protobufQuiet;
  std::string bytes(reinterpret_cast<const char *>(data), size);
  load(bytes);
  resealChecksums(bytes);
  load(bytes);
  return 0;
}
