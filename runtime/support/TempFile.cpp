//===- TempFile.cpp -------------------------------------------------------===//

#include "runtime/support/TempFile.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace geflow::rt {
namespace {

Status cannotWrite(const std::string &target, const std::string &why) {
  return makeStatus(StatusCode::kInvalidArgument,
                    "cannot write '" + target + "': " + why);
}

/// A different 64-bit value on each call in this process, and unlike those of
/// another process that had the same pid (a leftover of a killed run).
uint64_t nextSuffix() {
  static const uint64_t seed = static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  static std::atomic<uint64_t> counter{0};
  // splitmix64: consecutive counters give unrelated names.
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL *
                          (counter.fetch_add(1, std::memory_order_relaxed) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// write(2) until every byte is in `fd`; false with errno set.
bool writeAll(int fd, std::string_view bytes) {
  const char *p = bytes.data();
  size_t size = bytes.size();
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      return false;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

} // namespace

Status createTempBeside(const std::string &target, TempFile *tmp) {
  // A clash means another writer (or a user) has the name: draw another.
  constexpr int kAttempts = 64;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    char suffix[48];
    std::snprintf(suffix, sizeof(suffix), ".tmp.%d.%016" PRIx64,
                  static_cast<int>(::getpid()), nextSuffix());
    std::string path = target + suffix;
    int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      tmp->path = std::move(path);
      tmp->fd = fd;
      return Status::ok();
    }
    if (errno != EEXIST && errno != EINTR)
      return cannotWrite(target, std::strerror(errno));
  }
  return cannotWrite(target, "no free temporary name beside it");
}

Status writeAndClose(TempFile &tmp, const std::string &target,
                     const std::vector<std::string_view> &pieces) {
  bool written = true;
  for (std::string_view piece : pieces)
    if (!(written = writeAll(tmp.fd, piece)))
      break;
  bool synced = written && ::fsync(tmp.fd) == 0;
  std::string why = synced ? "" : std::strerror(errno);
  if (::close(tmp.fd) != 0 && synced) {
    synced = false;
    why = std::strerror(errno);
  }
  tmp.fd = -1;
  return synced ? Status::ok() : cannotWrite(target, why);
}

Status replaceFileAtomically(const std::string &target,
                             const std::vector<std::string_view> &pieces) {
  TempFile tmp;
  GEFLOW_RT_RETURN_IF_ERROR(createTempBeside(target, &tmp));
  Status written = writeAndClose(tmp, target, pieces);
  if (written.isOk() && ::rename(tmp.path.c_str(), target.c_str()) != 0)
    written = cannotWrite(target, std::strerror(errno));
  if (!written.isOk())
    ::unlink(tmp.path.c_str());
  return written;
}

} // namespace geflow::rt
