//===- OmWriter.cpp - OmModel -> OM file ----------------------------------===//
//
// Layout: header (256), partition table, MODEL_DEF, TASK_INFO, MEMORY, then
// WEIGHTS last, its start rounded up to kWeightAlignment so that a mapping of
// the file (page-aligned) gives 64-byte aligned constants.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace geflow::om {
namespace {

rt::Status fail(const std::string &msg) {
  return rt::makeStatus(rt::StatusCode::kInvalidArgument, msg);
}

void putU32(std::string &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void putU64(std::string &b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// Serializes `message` into `size` bytes at `out`, `size` being the
/// ByteSizeLong() just computed (the sizes it cached are reused), with maps
/// (attributes) in a fixed order, so that compiling a model twice gives the
/// same file byte for byte. Straight into the file's head: a 100k-op
/// MODEL_DEF is tens of MB, not to be grown in a string and copied again.
bool serializeDeterministic(const google::protobuf::MessageLite &message,
                            char *out, size_t size) {
  google::protobuf::io::ArrayOutputStream stream(out, static_cast<int>(size));
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeWithCachedSizes(&coded);
  return !coded.HadError() && static_cast<size_t>(coded.ByteCount()) == size;
}

/// Every byte of the file before WEIGHTS: header, partition table, MODEL_DEF,
/// TASK_INFO, MEMORY and the zero padding up to the weights' aligned start.
/// The file is this head followed by the pieces of WEIGHTS unchanged, so
/// writing it never copies the weights.
rt::Status serializeHead(const OmModel &model, std::string *head) {
  if (model.socName.size() >= kOmSocNameSize)
    return fail("OM writer: SoC name '" + model.socName + "' is longer than " +
                std::to_string(kOmSocNameSize - 1) + " bytes");
  const google::protobuf::MessageLite *messages[] = {
      &model.modelDef, &model.taskDef, &model.memoryPlan};
  const char *names[] = {"MODEL_DEF", "TASK_INFO", "MEMORY"};

  const uint64_t tableOffset = kOmHeaderSize;
  uint64_t at = tableOffset + kOmPartitionCount * kOmPartitionEntrySize;
  PartitionEntry entries[kOmPartitionCount];
  auto place = [&](int slot, PartitionType type, uint64_t size,
                   uint64_t align) {
    at = alignUp(at, align);
    entries[slot].type = type;
    entries[slot].offset = at;
    entries[slot].size = size;
    at += size;
  };
  const PartitionType types[] = {PartitionType::kModelDef,
                                 PartitionType::kTaskInfo,
                                 PartitionType::kMemory};
  for (int i = 0; i < 3; ++i) {
    size_t size = messages[i]->ByteSizeLong();
    if (size > size_t(INT_MAX))
      return fail(std::string("OM writer: cannot serialize ") + names[i] +
                  " (over 2 GiB)");
    place(i, types[i], size, 8);
  }
  place(3, PartitionType::kWeights, model.weightsSize(), kWeightAlignment);
  entries[3].checksum = omChecksum(model.weightsPieces());
  const uint64_t total = at;

  std::string b(entries[3].offset, '\0');
  for (int i = 0; i < 3; ++i) {
    char *out = &b[entries[i].offset];
    if (!serializeDeterministic(*messages[i], out, entries[i].size))
      return fail(std::string("OM writer: cannot serialize ") + names[i]);
    entries[i].checksum = omChecksum(out, entries[i].size);
  }
  for (uint32_t i = 0; i < kOmPartitionCount; ++i) {
    size_t p = tableOffset + i * kOmPartitionEntrySize;
    putU32(b, p, static_cast<uint32_t>(entries[i].type));
    putU32(b, p + 4, 0);
    putU64(b, p + 8, entries[i].offset);
    putU64(b, p + 16, entries[i].size);
    putU64(b, p + 24, entries[i].checksum);
  }
  std::memcpy(&b[kHdrMagic], kOmMagic, sizeof(kOmMagic));
  putU32(b, kHdrFormatVersion, kOmFormatVersion);
  putU32(b, kHdrHeaderSize, kOmHeaderSize);
  std::memcpy(&b[kHdrProducerVersion], kOmProducerVersion,
              std::strlen(kOmProducerVersion));
  std::memcpy(&b[kHdrSocName], model.socName.data(), model.socName.size());
  putU32(b, kHdrPartitionCount, kOmPartitionCount);
  putU32(b, kHdrFlags, 0);
  putU64(b, kHdrTotalSize, total);
  putU64(b, kHdrTableOffset, tableOffset);
  putU64(
      b, kHdrTableChecksum,
      omChecksum(&b[tableOffset], kOmPartitionCount * kOmPartitionEntrySize));
  putU64(b, kHdrChecksum, omChecksum(b.data(), kHdrChecksum));
  *head = std::move(b);
  return rt::Status::ok();
}

} // namespace

uint64_t OmModel::weightsSize() const {
  if (borrowedWeights.empty())
    return weights.size();
  const BorrowedWeight &last = borrowedWeights.back();
  return alignUp(last.offset + last.bytes.size(), kWeightAlignment);
}

std::vector<std::string_view> OmModel::weightsPieces() const {
  static const char kZeros[kWeightAlignment] = {};
  std::vector<std::string_view> pieces;
  pieces.emplace_back(reinterpret_cast<const char *>(weights.data()),
                      weights.size());
  uint64_t at = weights.size();
  auto zerosTo = [&](uint64_t end) {
    while (at < end) {
      uint64_t n = std::min<uint64_t>(end - at, kWeightAlignment);
      pieces.emplace_back(kZeros, n);
      at += n;
    }
  };
  for (const BorrowedWeight &w : borrowedWeights) {
    zerosTo(w.offset);
    pieces.push_back(w.bytes);
    at += w.bytes.size();
  }
  zerosTo(weightsSize());
  return pieces;
}

rt::Status serializeOm(const OmModel &model, std::string *out) {
  std::string bytes;
  GEFLOW_RT_RETURN_IF_ERROR(serializeHead(model, &bytes));
  for (std::string_view piece : model.weightsPieces())
    bytes.append(piece);
  *out = std::move(bytes);
  return rt::Status::ok();
}

rt::Status writeOmFile(const OmModel &model, const std::string &path,
                       OutputFiles *staging, OmWriteCheck check) {
  if (check == OmWriteCheck::kValidate)
    GEFLOW_RT_RETURN_IF_ERROR(validateOmModel(model, path));
  std::string head;
  GEFLOW_RT_RETURN_IF_ERROR(serializeHead(model, &head));
  std::vector<std::string_view> pieces = model.weightsPieces();
  pieces.insert(pieces.begin(), head);
  if (staging)
    return staging->stage(path, pieces);
  return writeFileAtomically(path, pieces);
}

} // namespace geflow::om
