//===- TempFile.h - a file written beside its target, renamed -*- C++ -*-===//
//
// Whoever writes a file a reader may look at any moment (an OM artifact, a
// trace) writes a temporary in the same folder and renames it over the target,
// so the target is always whole. The temporary's name must be one nobody else
// uses: a fixed `<target>.tmp` would be clobbered by a second writer and would
// clobber a user's own file of that name. createTempBeside makes it the way
// mkstemp(3) does (a fresh name, O_EXCL, retried on a clash), but keeps the
// mode of an ordinary output (0644 less the umask), not mkstemp's 0600.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SUPPORT_TEMPFILE_H
#define GEFLOW_RUNTIME_SUPPORT_TEMPFILE_H

#include "runtime/support/Status.h"

#include <string>
#include <string_view>
#include <vector>

namespace geflow::rt {

/// An open temporary; `path` is "<target>.tmp.<pid>.<random>".
struct TempFile {
  std::string path;
  int fd = -1;
};

/// Creates a new empty file beside `target` that no other writer has.
/// Errors read "cannot write '<target>': <reason>".
Status createTempBeside(const std::string &target, TempFile *tmp);

/// Writes `pieces` in order to `tmp`, syncs it to disk and closes it (also on
/// an error). The file stays; removing it on an error is the caller's.
Status writeAndClose(TempFile &tmp, const std::string &target,
                     const std::vector<std::string_view> &pieces);

/// Replaces `target` with `pieces` through a temporary beside it; on any
/// failure the temporary is removed and `target` is as it was.
Status replaceFileAtomically(const std::string &target,
                             const std::vector<std::string_view> &pieces);

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SUPPORT_TEMPFILE_H
