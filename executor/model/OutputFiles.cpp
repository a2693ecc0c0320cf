//===- OutputFiles.cpp ----------------------------------------------------===//

#include "executor/model/OutputFiles.h"

#include "runtime/support/TempFile.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace geflow::om {
namespace {

rt::Status cannotWrite(const std::string &path, const std::string &why) {
  return rt::makeStatus(rt::StatusCode::kInvalidArgument,
                        "cannot write '" + path + "': " + why);
}

std::atomic<OutputObserver *> observer{nullptr};

void tellMade(const std::string &path, OutputKind kind) {
  if (OutputObserver *o = observer.load(std::memory_order_acquire))
    o->made(path, kind);
}

void tellSettled(const std::string &path) {
  if (OutputObserver *o = observer.load(std::memory_order_acquire))
    o->settled(path);
}

bool isFolder(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

void setOutputObserver(OutputObserver *o) {
  observer.store(o, std::memory_order_release);
}

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
  if (::mkdir(dir.c_str(), 0755) != 0) {
    if (errno == EEXIST && isFolder(dir))
      return true; // made by someone else meanwhile: not ours to remove
    *why = std::strerror(errno);
    return false;
  }
  madeFolders_.push_back(dir);
  tellMade(dir, OutputKind::kFolder);
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
  rt::TempFile tmp;
  GEFLOW_RT_RETURN_IF_ERROR(rt::createTempBeside(path, &tmp));
  staged_.push_back({path, tmp.path});
  tellMade(tmp.path, OutputKind::kFile);
  return rt::writeAndClose(tmp, path, pieces);
}

rt::Status OutputFiles::commit() {
  for (size_t i = 0; i < staged_.size(); ++i) {
    const Staged &s = staged_[i];
    if (::rename(s.tmp.c_str(), s.path.c_str()) != 0) {
      rt::Status failed = cannotWrite(s.path, std::strerror(errno));
      // The files renamed so far are complete and keep their folders; the
      // rest are removed.
      staged_.erase(staged_.begin(), staged_.begin() + i);
      keepFolders();
      return failed;
    }
    tellSettled(s.tmp);
  }
  staged_.clear();
  keepFolders();
  return rt::Status::ok();
}

void OutputFiles::keepFolders() {
  for (const std::string &dir : madeFolders_)
    tellSettled(dir);
  madeFolders_.clear();
}

void OutputFiles::discard() {
  for (const Staged &s : staged_) {
    ::unlink(s.tmp.c_str());
    tellSettled(s.tmp);
  }
  staged_.clear();
  for (auto it = madeFolders_.rbegin(); it != madeFolders_.rend(); ++it) {
    ::rmdir(it->c_str()); // only when empty: never a user's file
    tellSettled(*it);
  }
  madeFolders_.clear();
}

rt::Status writeFileAtomically(const std::string &path,
                               const std::vector<std::string_view> &pieces) {
  OutputFiles files;
  GEFLOW_RT_RETURN_IF_ERROR(files.stage(path, pieces));
  return files.commit();
}

} // namespace geflow::om
