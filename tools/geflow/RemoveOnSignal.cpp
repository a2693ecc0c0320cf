//===- RemoveOnSignal.cpp -------------------------------------------------===//
//
// Temporaries go on LLVM's RemoveFileOnSignal list, which LLVM's handlers
// empty on every fatal signal and on report_fatal_error. That list skips
// folders, so the folders an OutputFiles made are kept on a list of ours and
// removed after the files (rmdir: only while empty, so never a user's file):
//  - on a crash, by a callback of LLVM's crash handler (AddSignalHandler),
//    which runs after LLVM has removed the files;
//  - on SIGINT, SIGTERM and SIGHUP, by a handler of ours in front of LLVM's:
//    it removes the files and the folders, then passes the signal on to
//    LLVM's handler, which ends the process with it. (LLVM's own interrupt
//    hook, SetInterruptFunction, is not told which signal came, so it could
//    not end the process the way the signal would have.)
// OutputFiles lives in the executor's library, which a host program links
// with its own signal handling; so the wiring is here, in the tool.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/RemoveOnSignal.h"

#include "executor/model/OutputFiles.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace geflow;

namespace {

/// A folder an OutputFiles made and still holds. Nodes are pushed at the head
/// and never freed, so a signal handler may walk the list at any moment; a
/// folder that is settled only has its path taken out. A command makes a
/// handful of folders, so the nodes left behind cost nothing.
struct FolderNode {
  std::atomic<char *> path;
  FolderNode *next;
};
std::atomic<FolderNode *> heldFolders{nullptr};

/// Async-signal-safe. Newest first, so a folder made inside another goes
/// before it.
void removeHeldFolders() {
  for (FolderNode *n = heldFolders.load(std::memory_order_acquire); n;
       n = n->next)
    if (char *path = n->path.exchange(nullptr, std::memory_order_acq_rel))
      ::rmdir(path); // left to leak: the process is ending
}

class RemoveOnSignalObserver : public om::OutputObserver {
public:
  void made(const std::string &path, om::OutputKind kind) override {
    if (kind == om::OutputKind::kFile) {
      llvm::sys::RemoveFileOnSignal(path);
      return;
    }
    auto *node = new FolderNode{{::strdup(path.c_str())}, nullptr};
    node->next = heldFolders.load(std::memory_order_relaxed);
    while (!heldFolders.compare_exchange_weak(node->next, node,
                                              std::memory_order_release,
                                              std::memory_order_relaxed)) {
    }
  }

  void settled(const std::string &path) override {
    llvm::sys::DontRemoveFileOnSignal(path); // nothing for a folder
    for (FolderNode *n = heldFolders.load(std::memory_order_acquire); n;
         n = n->next) {
      char *held = n->path.load(std::memory_order_acquire);
      // The exchange fails if a signal handler took the path meanwhile.
      if (held && path == held &&
          n->path.compare_exchange_strong(held, nullptr)) {
        std::free(held);
        return;
      }
    }
  }
};

constexpr int kInterrupts[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction handlerBefore[NSIG]; // what each interrupt did before ours
// The process whose outputs these are. A child forked from it (the frontend
// runs libonnx in one) inherits the lists and handlers, but a signal to the
// child must not remove its parent's files.
pid_t owner = -1;

void removeOutputsThenPassOn(int signal) {
  if (::getpid() != owner) { // a forked child: die as if we were not here
    ::signal(signal, SIG_DFL);
    ::raise(signal);
    return;
  }
  llvm::sys::RunInterruptHandlers(); // LLVM's list: the temporaries
  removeHeldFolders();
  // The signal is blocked while this runs: raised again, it reaches the
  // handler from before ours (LLVM's) as soon as this one returns.
  ::sigaction(signal, &handlerBefore[signal], nullptr);
  ::raise(signal);
}

void removeFoldersOnCrash(void *) {
  if (::getpid() == owner)
    removeHeldFolders();
}

} // namespace

void geflow::cli::removeOutputsOnSignal() {
  static RemoveOnSignalObserver observer;
  owner = ::getpid();
  llvm::sys::AddSignalHandler(removeFoldersOnCrash, nullptr);
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = removeOutputsThenPassOn;
  sigemptyset(&action.sa_mask);
  for (int signal : kInterrupts) // one cleanup at a time
    sigaddset(&action.sa_mask, signal);
  for (int signal : kInterrupts) {
    ::sigaction(signal, &action, &handlerBefore[signal]);
    if (handlerBefore[signal].sa_handler == SIG_IGN) // stays ignored (nohup)
      ::sigaction(signal, &handlerBefore[signal], nullptr);
  }
  om::setOutputObserver(&observer);
}
