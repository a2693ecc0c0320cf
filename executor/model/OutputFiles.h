//===- OutputFiles.h - every file a command writes, all or none -*- C++ -*-===//
//
// A command that fails must leave nothing half-written. Each output
// is first written to a temporary beside it (same folder, so the rename is
// atomic); commit() renames them all into place at the end, and anything not
// committed -- temporaries and the folders made for them -- is removed, also
// when the OutputFiles is destroyed on an error path. geflow compile, import,
// run and dump, --dump-graph and --profile all write through one of these.
// A process that may be killed midway installs an OutputObserver to remove
// what is left then (geflow: tools/geflow/RemoveOnSignal.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OUTPUTFILES_H
#define GEFLOW_EXECUTOR_MODEL_OUTPUTFILES_H

#include "runtime/support/Status.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace geflow::om {

/// What an OutputFiles makes on disk.
enum class OutputKind { kFile, kFolder };

/// Told of every temporary and folder an OutputFiles makes, once it exists,
/// and again once it is renamed into place, removed or kept for good. The
/// library installs no signal handlers itself: a process has one owner of
/// those (LLVM's in geflow), and a host program linking the executor keeps
/// its own.
class OutputObserver {
public:
  virtual ~OutputObserver() = default;
  virtual void made(const std::string &path, OutputKind kind) = 0;
  virtual void settled(const std::string &path) = 0;
};

/// Sets the observer of every OutputFiles in the process (nullptr: none).
void setOutputObserver(OutputObserver *observer);

class OutputFiles {
public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles &) = delete;
  OutputFiles &operator=(const OutputFiles &) = delete;
  ~OutputFiles() { discard(); }

  /// Creates `dir` and its missing parents; those it made are removed again
  /// unless the files are committed. An existing file there is an error.
  rt::Status createFolder(const std::string &dir);

  /// Writes `pieces`, in order, to a temporary beside `path`. `path` must not
  /// be a folder; its folder must exist (or come from createFolder).
  rt::Status stage(const std::string &path,
                   const std::vector<std::string_view> &pieces);

  /// Renames every staged file over its path, in staging order.
  rt::Status commit();

  /// Removes the temporaries and the folders made, newest first.
  void discard();

private:
  /// createFolder's work; false with the reason in `why`.
  bool makeFolders(const std::string &dir, std::string *why);
  /// The folders made stay, holding committed files.
  void keepFolders();

  struct Staged {
    std::string path, tmp;
  };
  std::vector<Staged> staged_;
  std::vector<std::string> madeFolders_;
};

/// One file through an OutputFiles: staged, then committed.
rt::Status writeFileAtomically(const std::string &path,
                               const std::vector<std::string_view> &pieces);
inline rt::Status writeFileAtomically(const std::string &path,
                                      const std::string &bytes) {
  return writeFileAtomically(path, {std::string_view(bytes)});
}

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OUTPUTFILES_H
