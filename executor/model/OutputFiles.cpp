//===- OutputFiles.cpp ----------------------------------------------------===//

#include "executor/model/OutputFiles.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace geflow::om {
namespace {

rt::Status cannotWrite(const std::string &path, const std::string &why) {
  return rt::makeStatus(rt::StatusCode::kInvalidArgument,
                        "cannot write '" + path + "': " + why);
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

bool isFolder(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

bool OutputFiles::makeFolders(const std::string &dir, std::string *why) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return true;
    *why = "'" + dir + "' is a file";
    return false;
  }
  size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 &&
      !makeFolders(dir.substr(0, slash), why))
    return false;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    *why = std::strerror(errno);
    return false;
  }
  madeFolders_.push_back(dir);
  return true;
}

rt::Status OutputFiles::createFolder(const std::string &dir) {
  std::string why;
  if (makeFolders(dir, &why))
    return rt::Status::ok();
  return rt::makeStatus(rt::StatusCode::kInvalidArgument,
                        "cannot create the folder '" + dir + "': " + why);
}

rt::Status OutputFiles::stage(const std::string &path,
                              const std::vector<std::string_view> &pieces) {
  if (isFolder(path))
    return cannotWrite(path, "it is a folder");
  // Unique per process and per call, so concurrent writers never share one.
  static std::atomic<uint64_t> counter{0};
  std::string tmp =
      path + ".tmp." + std::to_string(::getpid()) + "." +
      std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return cannotWrite(path, std::strerror(errno));
  staged_.push_back({path, tmp});
  bool written = true;
  for (std::string_view piece : pieces)
    if (!(written = writeAll(fd, piece)))
      break;
  bool synced = written && ::fsync(fd) == 0;
  std::string why = synced ? "" : std::strerror(errno);
  if (::close(fd) != 0 && synced) {
    synced = false;
    why = std::strerror(errno);
  }
  if (!synced)
    return cannotWrite(path, why);
  return rt::Status::ok();
}

rt::Status OutputFiles::commit() {
  for (size_t i = 0; i < staged_.size(); ++i) {
    const Staged &s = staged_[i];
    if (::rename(s.tmp.c_str(), s.path.c_str()) != 0) {
      std::string why = std::strerror(errno);
      // The files renamed so far are complete; the rest are removed.
      staged_.erase(staged_.begin(), staged_.begin() + i);
      madeFolders_.clear();
      return cannotWrite(s.path, why);
    }
  }
  staged_.clear();
  madeFolders_.clear();
  return rt::Status::ok();
}

void OutputFiles::discard() {
  for (const Staged &s : staged_)
    ::unlink(s.tmp.c_str());
  staged_.clear();
  for (auto it = madeFolders_.rbegin(); it != madeFolders_.rend(); ++it)
    ::rmdir(it->c_str()); // only when empty: never a user's file
  madeFolders_.clear();
}

rt::Status writeFileAtomically(const std::string &path,
                               const std::vector<std::string_view> &pieces) {
  OutputFiles files;
  GEFLOW_RT_RETURN_IF_ERROR(files.stage(path, pieces));
  return files.commit();
}

} // namespace geflow::om
