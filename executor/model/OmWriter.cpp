//===- OmWriter.cpp - OmModel -> OM file ----------------------------------===//
//
// Layout: header (256), partition table, MODEL_DEF, TASK_INFO, MEMORY, then
// WEIGHTS last, its start rounded up to kWeightAlignment so that a mapping of
// the file (page-aligned) gives 64-byte aligned constants.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

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

} // namespace

rt::Status serializeOm(const OmModel &model, std::string *out) {
  if (model.socName.size() >= kOmSocNameSize)
    return fail("OM writer: SoC name '" + model.socName + "' is longer than " +
                std::to_string(kOmSocNameSize - 1) + " bytes");
  std::string modelDef, taskInfo, memory;
  if (!model.modelDef.SerializeToString(&modelDef))
    return fail("OM writer: cannot serialize MODEL_DEF");
  if (!model.taskDef.SerializeToString(&taskInfo))
    return fail("OM writer: cannot serialize TASK_INFO");
  if (!model.memoryPlan.SerializeToString(&memory))
    return fail("OM writer: cannot serialize MEMORY");

  const uint64_t tableOffset = kOmHeaderSize;
  uint64_t at = tableOffset + kOmPartitionCount * kOmPartitionEntrySize;
  PartitionEntry entries[kOmPartitionCount];
  const std::string *payload[kOmPartitionCount] = {};
  auto place = [&](int slot, PartitionType type, const std::string *bytes,
                   const void *data, uint64_t size, uint64_t align) {
    at = alignUp(at, align);
    entries[slot].type = type;
    entries[slot].offset = at;
    entries[slot].size = size;
    entries[slot].checksum = omChecksum(data, size);
    payload[slot] = bytes;
    at += size;
  };
  place(0, PartitionType::kModelDef, &modelDef, modelDef.data(),
        modelDef.size(), 8);
  place(1, PartitionType::kTaskInfo, &taskInfo, taskInfo.data(),
        taskInfo.size(), 8);
  place(2, PartitionType::kMemory, &memory, memory.data(), memory.size(), 8);
  place(3, PartitionType::kWeights, nullptr, model.weights.data(),
        model.weights.size(), kWeightAlignment);
  const uint64_t total = at;

  std::string b(total, '\0');
  for (uint32_t i = 0; i < kOmPartitionCount; ++i) {
    const PartitionEntry &e = entries[i];
    if (e.size == 0)
      continue;
    const void *src = payload[i] ? static_cast<const void *>(payload[i]->data())
                                 : static_cast<const void *>(model.weights.data());
    std::memcpy(&b[e.offset], src, e.size);
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
  putU64(b, kHdrTableChecksum,
         omChecksum(&b[tableOffset], kOmPartitionCount * kOmPartitionEntrySize));
  putU64(b, kHdrChecksum, omChecksum(b.data(), kHdrChecksum));
  *out = std::move(b);
  return rt::Status::ok();
}

rt::Status writeFileAtomically(const std::string &path,
                               const std::string &bytes) {
  // Unique per process and per call, so concurrent writers never share one.
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(path + ": cannot create '" + tmp + "': " + std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return fail(path + ": write failed: " + why);
    }
    done += static_cast<size_t>(n);
  }
  bool synced = ::fsync(fd) == 0;
  std::string why = synced ? "" : std::strerror(errno);
  if (::close(fd) != 0 && synced) {
    synced = false;
    why = std::strerror(errno);
  }
  if (!synced) {
    ::unlink(tmp.c_str());
    return fail(path + ": write failed: " + why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return fail(path + ": cannot rename '" + tmp + "' over it: " + why);
  }
  return rt::Status::ok();
}

rt::Status writeOmFile(const OmModel &model, const std::string &path) {
  // Refuse to write what the loader would refuse to read.
  GEFLOW_RT_RETURN_IF_ERROR(validateOmModel(model, path));
  std::string bytes;
  GEFLOW_RT_RETURN_IF_ERROR(serializeOm(model, &bytes));
  return writeFileAtomically(path, bytes);
}

} // namespace geflow::om
