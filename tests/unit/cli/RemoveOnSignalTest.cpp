//===- RemoveOnSignalTest.cpp - a killed geflow leaves no outputs ---------===//
//
// A child process set up as geflow's main() is (LLVM's handlers, then
// removeOutputsOnSignal) stages outputs through om::OutputFiles and is killed
// or crashes; the parent checks that the signal ended it and that nothing it
// staged or made is left.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/RemoveOnSignal.h"

#include "executor/model/OutputFiles.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"

#include "tests/unit/ScratchFolder.h"

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

// GCC says so with __SANITIZE_*__, clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GEFLOW_SANITIZER_HANDLES_SEGV 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GEFLOW_SANITIZER_HANDLES_SEGV 1
#endif
#endif

namespace fs = std::filesystem;
using geflow::om::OutputFiles;

namespace {

/// A crash is a fault, not a raise(): LLVM's crash handler returns into the
/// faulting code, which faults again with the default action restored.
void deliver(int signal) {
  if (signal == SIGSEGV) {
    void *page =
        ::mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *static_cast<volatile char *>(page) = 1;
  }
  if (signal == SIGABRT)
    std::abort(); // what a failed assertion does
  ::raise(signal);
}

/// Whether a waitpid `status` says `signal` ended the process. A sanitizer
/// reports a SEGV itself, once LLVM's handler has passed it on, and exits.
bool endedBy(int status, int signal) {
  if (WIFSIGNALED(status))
    return WTERMSIG(status) == signal;
#if GEFLOW_SANITIZER_HANDLES_SEGV
  return signal == SIGSEGV && WIFEXITED(status) && WEXITSTATUS(status) != 0;
#else
  return false;
#endif
}

class RemoveOnSignal
    : public geflow::test::InScratchFolder<::testing::TestWithParam<int>> {
protected:
  /// Runs `body` in a child set up like geflow, which then gets `signal`
  /// the way it comes in real life; returns how the child ended (a waitpid
  /// status).
  template <typename Body> int runChildThenRaise(int signal, Body body) {
    pid_t pid = ::fork();
    if (pid == 0) {
      // The crash handler prints a stack trace: keep it out of the log.
      int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDERR_FILENO);
      llvm::sys::PrintStackTraceOnErrorSignal(""); // as llvm::InitLLVM does
      geflow::cli::removeOutputsOnSignal();
      body();
      deliver(signal);
      ::_exit(0); // the signal did not end the process
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
  }
};

std::string signalName(const ::testing::TestParamInfo<int> &info) {
  return sigabbrev_np(info.param);
}

TEST_P(RemoveOnSignal, StagedFilesAndTheFoldersMadeForThemAreRemoved) {
  int signal = GetParam();
  fs::create_directories(path("kept"));
  int status = runChildThenRaise(signal, [&] {
    // Held, not destroyed: the signal comes while they are staged.
    auto *files = new OutputFiles;
    if (!files->createFolder(path("out/deep")).isOk() ||
        !files->stage(path("out/deep/a.bin"), {"partial"}).isOk() ||
        !files->stage(path("kept/b.bin"), {"partial"}).isOk() ||
        !files->createFolder(path("profile")).isOk())
      ::_exit(3);
  });
  EXPECT_TRUE(endedBy(status, signal)) << "status " << status;
  // The folder that was there before stays; everything else is gone.
  EXPECT_EQ(entries(), std::vector<std::string>{"kept"});
}

TEST_P(RemoveOnSignal, CommittedFilesAndTheirFoldersStay) {
  int signal = GetParam();
  int status = runChildThenRaise(signal, [&] {
    auto *files = new OutputFiles;
    if (!files->createFolder(path("out")).isOk() ||
        !files->createFolder(path("empty")).isOk() ||
        !files->stage(path("out/a.bin"), {"whole"}).isOk() ||
        !files->commit().isOk())
      ::_exit(3);
  });
  EXPECT_TRUE(endedBy(status, signal)) << "status " << status;
  EXPECT_EQ(entries(), (std::vector<std::string>{"empty", "out", "out/a.bin"}));
  std::ifstream in(path("out/a.bin"));
  std::string text;
  in >> text;
  EXPECT_EQ(text, "whole");
}

// Interrupts (SIGINT, SIGTERM, SIGHUP) and crashes (SIGSEGV, SIGABRT: an
// assertion or llvm::report_fatal_error).
INSTANTIATE_TEST_SUITE_P(Signals, RemoveOnSignal,
                         ::testing::Values(SIGINT, SIGTERM, SIGHUP, SIGSEGV,
                                           SIGABRT),
                         signalName);

// The frontend runs libonnx in a forked child, which inherits the handlers:
// a signal that ends the child must leave its parent's outputs alone.
// (That child resets crash signals to their defaults.)
class RemoveOnInterruptInParent : public RemoveOnSignal {};

TEST_P(RemoveOnInterruptInParent, AForkedChildLeavesItsParentsOutputsAlone) {
  int signal = GetParam();
  // The body ends the child with its verdict before any signal.
  int status = runChildThenRaise(SIGKILL, [&] {
    auto *files = new OutputFiles;
    if (!files->createFolder(path("out")).isOk() ||
        !files->stage(path("out/a.bin"), {"partial"}).isOk())
      ::_exit(3);
    pid_t child = ::fork();
    if (child == 0) {
      ::raise(signal);
      ::_exit(0);
    }
    int childStatus = 0;
    ::waitpid(child, &childStatus, 0);
    bool childDied =
        WIFSIGNALED(childStatus) && WTERMSIG(childStatus) == signal;
    ::_exit(childDied ? 0 : 4);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "status " << status;
  EXPECT_EQ(entries().size(), 2u); // out and the temporary in it
}

INSTANTIATE_TEST_SUITE_P(Signals, RemoveOnInterruptInParent,
                         ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         signalName);

} // namespace
