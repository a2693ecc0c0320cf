//===- OmReader.cpp - OM file -> validated LoadedOm -----------------------===//
//
// The file is mapped read-only; WEIGHTS is handed out in place. Checks run
// from the outside in, so each damage is reported by the first check that can
// see it: size, magic, version, header checksum, total size, partition table,
// per-partition bounds and checksums, protobuf parsing, then the semantic
// checks of OmValidation.cpp.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"
#include "runtime/support/MemoryPages.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace geflow::om {
namespace {

rt::Status bad(const std::string &source, const std::string &msg) {
  return rt::makeStatus(rt::StatusCode::kInvalidSpec, source + ": " + msg);
}

uint32_t getU32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
uint64_t getU64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

std::string fixedString(const uint8_t *p, size_t n) {
  size_t len = 0;
  while (len < n && p[len] != 0)
    ++len;
  return std::string(reinterpret_cast<const char *>(p), len);
}

std::string printable(const uint8_t *p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s += (p[i] >= 0x20 && p[i] < 0x7f) ? static_cast<char>(p[i]) : '?';
  return s;
}

/// One gear's program of a model with gears, over its parent's weights.
class GearView final : public LoadedOm {
public:
  GearView(const LoadedOm &parent, size_t index)
      : parent_(parent), index_(index) {}
  const std::string &socName() const override { return parent_.socName(); }
  const ModelDef &modelDef() const override { return parent_.modelDef(); }
  const GraphDef &graph() const override {
    return parent_.modelDef().graph(index_);
  }
  const ModelTaskDef &taskDef() const override {
    return parent_.taskDef().gear(index_);
  }
  const MemoryPlan &memoryPlan() const override {
    return parent_.memoryPlan().gear(index_);
  }
  const uint8_t *weights() const override { return parent_.weights(); }
  uint64_t weightsSize() const override { return parent_.weightsSize(); }
  void dropWeightPages(uint64_t offset, uint64_t bytes) const override {
    parent_.dropWeightPages(offset, bytes);
  }
  size_t gearCount() const override { return 1; }
  const LoadedOm &gear(size_t) const override { return *this; }

private:
  const LoadedOm &parent_;
  size_t index_;
};

/// Owns the bytes (a mapping or an aligned heap copy) and the parsed messages.
class LoadedOmImpl final : public LoadedOm {
public:
  ~LoadedOmImpl() override {
    if (mapped_)
      ::munmap(const_cast<uint8_t *>(base_), size_);
    else
      std::free(const_cast<uint8_t *>(base_));
  }
  const std::string &socName() const override { return socName_; }
  const ModelDef &modelDef() const override { return modelDef_; }
  const GraphDef &graph() const override { return modelDef_.graph(0); }
  const ModelTaskDef &taskDef() const override { return taskDef_; }
  const MemoryPlan &memoryPlan() const override { return memory_; }
  const uint8_t *weights() const override { return weights_; }
  uint64_t weightsSize() const override { return weightsSize_; }
  void dropWeightPages(uint64_t offset, uint64_t bytes) const override {
    // A private read-only file mapping: dropped pages read back the same
    // bytes from the file. Memory of a copy would read back zeros.
    if (mapped_ && offset < weightsSize_)
      rt::dropPagesWithin(weights_ + offset,
                          std::min(bytes, weightsSize_ - offset));
  }
  size_t gearCount() const override {
    return gears_.empty() ? 1 : gears_.size();
  }
  const LoadedOm &gear(size_t i) const override {
    if (gears_.empty())
      return *this;
    return *gears_[i];
  }

  /// One view per gear, made once the partitions are validated.
  void makeGearViews() {
    for (int i = 0; i < modelDef_.gears().gear_size(); ++i)
      gears_.push_back(std::make_unique<GearView>(*this, i));
  }

  const uint8_t *base_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::string socName_;
  ModelDef modelDef_;
  ModelTaskDef taskDef_;
  MemoryPlan memory_;
  const uint8_t *weights_ = nullptr;
  uint64_t weightsSize_ = 0;
  std::vector<std::unique_ptr<GearView>> gears_;
};

rt::Status parseAndValidate(LoadedOmImpl &om, const std::string &src,
                            const OmLimits &limits) {
  const uint8_t *d = om.base_;
  const uint64_t fileSize = om.size_;
  if (fileSize < kOmHeaderSize)
    return bad(src, "truncated: file has " + std::to_string(fileSize) +
                        " bytes, less than the " +
                        std::to_string(kOmHeaderSize) + "-byte header");
  if (std::memcmp(d + kHdrMagic, kOmMagic, sizeof(kOmMagic)) != 0)
    return bad(src, "bad magic '" + printable(d + kHdrMagic, 8) +
                        "' (expected 'GEFLOWOM'): not an OM file");
  uint32_t version = getU32(d + kHdrFormatVersion);
  if (version != kOmFormatVersion)
    return bad(src, "unsupported format version " + std::to_string(version) +
                        " (this loader reads version " +
                        std::to_string(kOmFormatVersion) + ")");
  if (getU64(d + kHdrChecksum) != omChecksum(d, kHdrChecksum))
    return bad(src, "header checksum mismatch");
  uint32_t headerSize = getU32(d + kHdrHeaderSize);
  if (headerSize != kOmHeaderSize)
    return bad(src, "header size " + std::to_string(headerSize) +
                        " (expected " + std::to_string(kOmHeaderSize) + ")");
  uint64_t total = getU64(d + kHdrTotalSize);
  if (total > fileSize)
    return bad(src, "truncated: header says " + std::to_string(total) +
                        " bytes, file has " + std::to_string(fileSize));
  if (total < fileSize)
    return bad(src, "size mismatch: header says " + std::to_string(total) +
                        " bytes, file has " + std::to_string(fileSize) +
                        " (trailing bytes)");
  uint32_t count = getU32(d + kHdrPartitionCount);
  if (count != kOmPartitionCount)
    return bad(src, "partition count " + std::to_string(count) + " (expected " +
                        std::to_string(kOmPartitionCount) +
                        ": MODEL_DEF, WEIGHTS, TASK_INFO, MEMORY)");
  uint64_t tableOffset = getU64(d + kHdrTableOffset);
  uint64_t tableSize = uint64_t(count) * kOmPartitionEntrySize;
  if (tableOffset < kOmHeaderSize || tableOffset > total ||
      tableSize > total - tableOffset)
    return bad(src, "partition table [" + std::to_string(tableOffset) + ", +" +
                        std::to_string(tableSize) + ") outside the file (" +
                        std::to_string(total) + " bytes)");
  if (getU64(d + kHdrTableChecksum) != omChecksum(d + tableOffset, tableSize))
    return bad(src, "partition table checksum mismatch");

  PartitionEntry byType[kOmPartitionCount];
  bool seen[kOmPartitionCount] = {};
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t *e = d + tableOffset + i * kOmPartitionEntrySize;
    uint32_t type = getU32(e);
    if (type >= kOmPartitionCount)
      return bad(src, "partition table entry " + std::to_string(i) +
                          ": unknown partition type " + std::to_string(type));
    if (seen[type])
      return bad(src, "partition table entry " + std::to_string(i) +
                          ": duplicate partition " +
                          partitionTypeName(PartitionType(type)));
    seen[type] = true;
    PartitionEntry &p = byType[type];
    p.type = PartitionType(type);
    p.offset = getU64(e + 8);
    p.size = getU64(e + 16);
    p.checksum = getU64(e + 24);
    const char *name = partitionTypeName(p.type);
    uint64_t dataStart = tableOffset + tableSize;
    if (p.offset < dataStart || p.offset > total || p.size > total - p.offset)
      return bad(src, std::string("partition ") + name + ": [" +
                          std::to_string(p.offset) + ", +" +
                          std::to_string(p.size) + ") outside the file (" +
                          std::to_string(total) + " bytes)");
    if (p.type == PartitionType::kWeights && p.offset % kWeightAlignment != 0)
      return bad(src, "partition WEIGHTS: offset " + std::to_string(p.offset) +
                          " is not " + std::to_string(kWeightAlignment) +
                          "-byte aligned");
  }
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t j = i + 1; j < count; ++j) {
      const PartitionEntry &a = byType[i], &b = byType[j];
      if (a.size && b.size && a.offset < b.offset + b.size &&
          b.offset < a.offset + a.size)
        return bad(src, std::string("partitions ") + partitionTypeName(a.type) +
                            " and " + partitionTypeName(b.type) + " overlap");
    }
  // Alignment padding is covered by no checksum; it must be zero so that
  // every byte of the file is checked by something.
  {
    std::vector<std::pair<uint64_t, uint64_t>> used = {
        {0, tableOffset + tableSize}};
    for (uint32_t i = 0; i < count; ++i)
      used.push_back({byType[i].offset, byType[i].offset + byType[i].size});
    std::sort(used.begin(), used.end());
    uint64_t at = 0;
    for (const auto &[begin, end] : used) {
      for (uint64_t k = at; k < begin; ++k)
        if (d[k] != 0)
          return bad(src,
                     "nonzero padding byte at offset " + std::to_string(k));
      at = std::max(at, end);
    }
    for (uint64_t k = at; k < total; ++k)
      if (d[k] != 0)
        return bad(src, "nonzero padding byte at offset " + std::to_string(k));
  }
  for (uint32_t i = 0; i < count; ++i) {
    const PartitionEntry &p = byType[i];
    if (omChecksum(d + p.offset, p.size) != p.checksum)
      return bad(src, std::string("partition ") + partitionTypeName(p.type) +
                          ": checksum mismatch");
  }

  auto parse = [&](google::protobuf::MessageLite &msg, PartitionType t) {
    const PartitionEntry &p = byType[uint32_t(t)];
    if (p.size > uint64_t(INT32_MAX) ||
        !msg.ParseFromArray(d + p.offset, static_cast<int>(p.size)))
      return bad(src, std::string("partition ") + partitionTypeName(t) +
                          ": not a valid protobuf message");
    return rt::Status::ok();
  };
  GEFLOW_RT_RETURN_IF_ERROR(parse(om.modelDef_, PartitionType::kModelDef));
  GEFLOW_RT_RETURN_IF_ERROR(parse(om.taskDef_, PartitionType::kTaskInfo));
  GEFLOW_RT_RETURN_IF_ERROR(parse(om.memory_, PartitionType::kMemory));
  const PartitionEntry &w = byType[uint32_t(PartitionType::kWeights)];
  om.weights_ = d + w.offset;
  om.weightsSize_ = w.size;
  om.socName_ = fixedString(d + kHdrSocName, kOmSocNameSize);
  GEFLOW_RT_RETURN_IF_ERROR(validateOmModel(om.modelDef_, om.taskDef_,
                                            om.memory_, w.size, src, limits));
  om.makeGearViews();
  return rt::Status::ok();
}

rt::Status checkModelBytes(uint64_t size, const std::string &src,
                           const OmLimits &limits) {
  if (size <= limits.maxModelBytes)
    return rt::Status::ok();
  return bad(src, std::to_string(size) + " bytes, over the limit of " +
                      std::to_string(limits.maxModelBytes) +
                      " (--max-model-bytes)");
}

} // namespace

rt::Status loadOmFile(const std::string &path, std::unique_ptr<LoadedOm> *out,
                      const OmLimits &limits) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return rt::makeStatus(rt::StatusCode::kNotFound,
                          path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return rt::makeStatus(rt::StatusCode::kNotFound,
                          path + ": not a regular file");
  }
  if (rt::Status s = checkModelBytes(uint64_t(st.st_size), path, limits);
      !s.isOk()) {
    ::close(fd);
    return s;
  }
  auto om = std::make_unique<LoadedOmImpl>();
  om->size_ = static_cast<size_t>(st.st_size);
  if (om->size_ > 0) {
    void *p = ::mmap(nullptr, om->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      std::string why = std::strerror(errno);
      ::close(fd);
      return rt::makeStatus(rt::StatusCode::kNotFound,
                            path + ": cannot map: " + why);
    }
    om->base_ = static_cast<const uint8_t *>(p);
    om->mapped_ = true;
  }
  ::close(fd);
  GEFLOW_RT_RETURN_IF_ERROR(parseAndValidate(*om, path, limits));
  *out = std::move(om);
  return rt::Status::ok();
}

rt::Status loadOmBytes(const std::string &bytes, const std::string &sourceName,
                       std::unique_ptr<LoadedOm> *out, const OmLimits &limits) {
  GEFLOW_RT_RETURN_IF_ERROR(checkModelBytes(bytes.size(), sourceName, limits));
  auto om = std::make_unique<LoadedOmImpl>();
  // A 64-aligned copy, so WEIGHTS is aligned as it would be in a mapping.
  size_t cap =
      (bytes.size() + kWeightAlignment) / kWeightAlignment * kWeightAlignment;
  void *p = std::aligned_alloc(kWeightAlignment, cap);
  if (!p)
    return rt::makeStatus(rt::StatusCode::kOutOfMemory,
                          sourceName + ": out of host memory");
  std::memcpy(p, bytes.data(), bytes.size());
  om->base_ = static_cast<const uint8_t *>(p);
  om->size_ = bytes.size();
  GEFLOW_RT_RETURN_IF_ERROR(parseAndValidate(*om, sourceName, limits));
  *out = std::move(om);
  return rt::Status::ok();
}

} // namespace geflow::om
