//===- ContainedLibOnnx.cpp - libonnx calls a crash cannot escape ---------===//

#include "frontends/onnx/ContainedLibOnnx.h"
#include "frontends/onnx/DetachedWeights.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/Opsets.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace geflow;
using namespace geflow::onnxfe;

// Under a sanitizer with libFuzzer, a sanitizer report in the child would run
// the fuzzer's death callback and record the input as a crash of ours; the
// child's death is an error the parent reports instead. Null without a
// sanitizer runtime.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));

namespace {

/// A request: the work, its argument, how many nodes to keep (all when
/// negative), then `modelBytes` bytes of serialized ModelProto.
struct RequestHeader {
  uint64_t work;
  int64_t argument;
  int64_t nodeCount;
  uint64_t shapesOnly; // reply with the graph's value_info and outputs only
  uint64_t modelBytes;
};

/// A reply: a kind, then `bytes` bytes of payload. Both headers are whole
/// 8-byte words, so no padding byte travels uninitialized.
struct ReplyHeader {
  uint64_t kind;
  uint64_t bytes;
};
constexpr uint64_t kModelReply = 'M';  // a serialized ModelProto
constexpr uint64_t kErrorReply = 'E';  // an error message
constexpr uint64_t kShapesReply = 'S'; // a GraphProto: value_info, outputs

/// Repeats `step` (one send or recv of at most the bytes left, returning what
/// it moved) until `size` bytes have moved; false on an error, at the end of
/// the stream, or when `step` moves nothing.
template <typename Step> bool moveAll(size_t size, Step step) {
  while (size > 0) {
    ssize_t moved = step(size);
    if (moved < 0 && errno == EINTR)
      continue;
    if (moved <= 0)
      return false;
    size -= static_cast<size_t>(moved);
  }
  return true;
}

bool sendAll(int fd, const void *data, size_t size) {
  const char *bytes = static_cast<const char *>(data);
  return moveAll(size, [&](size_t left) {
    // MSG_NOSIGNAL: a dead child is an outcome, not a SIGPIPE for us.
    ssize_t sent = ::send(fd, bytes, left, MSG_NOSIGNAL);
    bytes += std::max<ssize_t>(sent, 0);
    return sent;
  });
}

using Clock = std::chrono::steady_clock;

/// Receives `size` bytes; false at end of stream, on an error, or when
/// `deadline` passes first (then `*late` is set).
bool receiveAll(int fd, void *data, size_t size,
                Clock::time_point deadline = Clock::time_point::max(),
                bool *late = nullptr) {
  char *bytes = static_cast<char *>(data);
  return moveAll(size, [&](size_t left) -> ssize_t {
    if (late) {
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - Clock::now());
      pollfd ready{fd, POLLIN, 0};
      int polled = wait.count() > 0
                       ? ::poll(&ready, 1, static_cast<int>(wait.count()))
                       : 0;
      if (polled <= 0) {
        *late = polled == 0;
        return polled; // -1 with EINTR polls again
      }
    }
    ssize_t got = ::recv(fd, bytes, left, 0);
    bytes += std::max<ssize_t>(got, 0);
    return got;
  });
}

bool sendReply(int fd, uint64_t kind, const std::string &payload) {
  ReplyHeader header{kind, payload.size()};
  return sendAll(fd, &header, sizeof(header)) &&
         sendAll(fd, payload.data(), payload.size());
}

/// Signals the child dies of quietly: the parent reports the death, and a
/// sanitizer's or fuzzer's handler inherited from the parent would report it
/// as the parent's own crash.
void dieQuietlyOnCrash() {
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP})
    std::signal(signal, SIG_DFL);
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(nullptr);
  // std::terminate and a sanitizer print to stderr; the user gets one line.
  int devNull = ::open("/dev/null", O_WRONLY);
  if (devNull >= 0)
    ::dup2(devNull, STDERR_FILENO);
}

/// One request's work inside the child.
std::string serveRequest(const RequestHeader &header, const std::string &bytes,
                         uint64_t *kind) {
  *kind = kErrorReply;
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    return "the contained process could not read the model";
  onnx::GraphProto &graph = *model.mutable_graph();
  if (header.nodeCount >= 0 && header.nodeCount < graph.node_size())
    graph.mutable_node()->DeleteSubrange(
        static_cast<int>(header.nodeCount),
        graph.node_size() - static_cast<int>(header.nodeCount));
  auto work = reinterpret_cast<LibOnnxWork>(header.work);
  try {
    if (llvm::Error err = work(model, header.argument))
      return llvm::toString(std::move(err));
  } catch (const std::exception &e) {
    return std::string("unexpected exception: ") + e.what();
  } catch (...) {
    return "unexpected exception";
  }
  if (!header.shapesOnly) {
    *kind = kModelReply;
    return model.SerializeAsString();
  }
  onnx::GraphProto shapes;
  shapes.mutable_value_info()->Swap(graph.mutable_value_info());
  shapes.mutable_output()->Swap(graph.mutable_output());
  *kind = kShapesReply;
  return shapes.SerializeAsString();
}

/// The child's loop; it ends when the parent closes the socket (or dies).
[[noreturn]] void serve(int fd) {
  dieQuietlyOnCrash();
  for (;;) {
    RequestHeader header;
    std::string bytes;
    if (!receiveAll(fd, &header, sizeof(header)))
      break;
    bytes.resize(header.modelBytes);
    if (!receiveAll(fd, bytes.data(), bytes.size()))
      break;
    uint64_t kind;
    std::string reply = serveRequest(header, bytes, &kind);
    if (!sendReply(fd, kind, reply))
      break;
  }
  // _exit: no atexit handlers, no leak check, no flush of the parent's
  // buffered stdio.
  ::_exit(0);
}

/// How one request ended.
struct Outcome {
  bool started = false; // false: no child could be had; run in-process
  bool died = false;    // the child died; `status` says how
  bool late = false;    // ... because it ran past timeLimit and was killed
  int status = 0;
  uint64_t kind = 0;
  std::string payload;
};

/// How long one call may take. libonnx infers a 100k-node model in seconds;
/// a child still busy after this is looping on a malformed model.
std::chrono::milliseconds timeLimit = std::chrono::seconds(120);

std::string describeTimeLimit() {
  if (timeLimit.count() % 1000 == 0)
    return std::to_string(timeLimit.count() / 1000) + " s";
  return std::to_string(timeLimit.count()) + " ms";
}

/// The forked child that runs libonnx for this process. Calls are serialized
/// by the caller.
class ContainedProcess {
public:
  ContainedProcess() = default;
  ContainedProcess(const ContainedProcess &) = delete;
  ContainedProcess &operator=(const ContainedProcess &) = delete;
  ~ContainedProcess() { stop(); }

  /// `afterSend`, when given, runs once the request is on its way, while the
  /// child works.
  Outcome call(LibOnnxWork work, int64_t argument, int64_t nodeCount,
               bool shapesOnly, const std::string &model,
               llvm::function_ref<void()> afterSend = nullptr) {
    Outcome outcome;
    if (pid_ < 0 && !start())
      return outcome;
    outcome.started = true;
    RequestHeader request{reinterpret_cast<uint64_t>(work), argument, nodeCount,
                          shapesOnly, model.size()};
    ReplyHeader reply{};
    Clock::time_point deadline = Clock::now() + timeLimit;
    bool sent = sendAll(socket_, &request, sizeof(request)) &&
                sendAll(socket_, model.data(), model.size());
    if (sent && afterSend)
      afterSend();
    if (sent &&
        receiveAll(socket_, &reply, sizeof(reply), deadline, &outcome.late)) {
      outcome.kind = reply.kind;
      outcome.payload.resize(reply.bytes);
      if (receiveAll(socket_, outcome.payload.data(), reply.bytes, deadline,
                     &outcome.late))
        return outcome;
    }
    if (outcome.late)
      ::kill(pid_, SIGKILL);
    outcome.died = true;
    outcome.status = stop();
    return outcome;
  }

  /// Forks the child now, if none runs, rather than at the first call.
  void prestart() {
    if (pid_ < 0)
      (void)start();
  }

private:
  bool start() {
    // A debugger or profiler looking into libonnx wants it in this process.
    if (::getenv("GEFLOW_ONNX_IN_PROCESS"))
      return false;
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      return false;
    pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      return false;
    }
    if (pid == 0) {
      ::close(fds[0]);
      serve(fds[1]);
    }
    ::close(fds[1]);
    pid_ = pid;
    socket_ = fds[0];
    return true;
  }

  /// Closes the socket, which ends the child's loop, and reaps the child;
  /// returns its wait status.
  int stop() {
    int status = 0;
    if (pid_ < 0)
      return status;
    ::close(socket_);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    socket_ = -1;
    return status;
  }

  pid_t pid_ = -1;
  int socket_ = -1;
};

std::string describeDeath(int status) {
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    const char *name = ::sigabbrev_np(signal);
    return name ? "SIG" + std::string(name)
                : "signal " + std::to_string(signal);
  }
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

/// The first node whose prefix of the node list kills the child, found by
/// bisection; a prefix ending before it lives, since libonnx works through the
/// nodes in order. -1 when even the whole list lives now. `status` becomes
/// the fatal prefix's death.
int findFatalNode(ContainedProcess &process, LibOnnxWork work, int64_t argument,
                  const std::string &model, int nodeCount, int *status) {
  auto dies = [&](int prefix) {
    Outcome outcome =
        process.call(work, argument, prefix, /*shapesOnly=*/true, model);
    if (outcome.died)
      *status = outcome.status;
    return outcome.died;
  };
  int low = 1, high = nodeCount;
  if (high == 0 || !dies(high))
    return -1;
  while (low < high) {
    int middle = low + (high - low) / 2;
    if (dies(middle))
      high = middle;
    else
      low = middle + 1;
  }
  dies(high); // the last probe may have been a survivor
  return high - 1;
}

/// `model` becomes `result`, but in place: callers hold references into the
/// graph across the call, as they may across an in-process libonnx call.
void adoptKeepingGraphObject(onnx::ModelProto &model,
                             onnx::ModelProto &result) {
  onnx::GraphProto *graph = model.release_graph();
  graph->Swap(result.mutable_graph());
  model.Swap(&result);
  model.set_allocated_graph(graph);
}

/// The child's answer applied to `model`.
llvm::Error adoptReply(onnx::ModelProto &model, const Outcome &outcome,
                       llvm::StringRef stage) {
  if (outcome.kind == kErrorReply)
    return makeError(outcome.payload);
  bool parsed = false;
  if (outcome.kind == kShapesReply) {
    onnx::GraphProto shapes;
    parsed = shapes.ParseFromString(outcome.payload);
    onnx::GraphProto &graph = *model.mutable_graph();
    if (parsed) {
      graph.mutable_value_info()->Swap(shapes.mutable_value_info());
      graph.mutable_output()->Swap(shapes.mutable_output());
    }
  } else if (outcome.kind == kModelReply) {
    onnx::ModelProto result;
    parsed = result.ParseFromString(outcome.payload);
    if (parsed)
      adoptKeepingGraphObject(model, result);
  }
  if (!parsed)
    return makeError(stage + ": the contained process's reply is unreadable");
  return llvm::Error::success();
}

} // namespace

void onnxfe::setContainedTimeLimit(std::chrono::milliseconds limit) {
  timeLimit = limit;
}

/// The process's one contained process, and the lock that serializes its
/// calls.
static ContainedProcess &containedProcess(std::unique_lock<std::mutex> &lock) {
  static std::mutex callMutex;
  static ContainedProcess process;
  lock = std::unique_lock<std::mutex>(callMutex);
  return process;
}

void onnxfe::startContainedProcess() {
  std::unique_lock<std::mutex> lock;
  containedProcess(lock).prestart();
}

llvm::Error onnxfe::runContained(onnx::ModelProto &model, llvm::StringRef stage,
                                 LibOnnxWork work, int64_t argument,
                                 ContainedChanges changes,
                                 llvm::function_ref<void()> whileWaiting) {
  assert((!whileWaiting || changes == ContainedChanges::kShapes) &&
         "only a shapes-only reply leaves the initializers alone");
  std::unique_lock<std::mutex> lock;
  ContainedProcess &process = containedProcess(lock);

  onnx::GraphProto &graph = *model.mutable_graph();
  DetachedWeights weights;
  weights.detach(graph);
  std::string request;
  if (!model.SerializeToString(&request)) {
    weights.reattach(graph);
    return makeError(stage + ": the model does not serialize (over 2 GiB "
                             "without its large weights?)");
  }
  // A shapes-only reply touches no initializer: their data can come back
  // now, for `whileWaiting` to read.
  auto meanwhile = [&] {
    weights.reattach(graph);
    whileWaiting();
  };
  Outcome outcome = process.call(
      work, argument, /*nodeCount=*/-1, changes == ContainedChanges::kShapes,
      request, whileWaiting ? llvm::function_ref<void()>(meanwhile) : nullptr);
  if (!outcome.started) {
    weights.reattach(graph);
    return work(model, argument);
  }
  if (!outcome.died) {
    llvm::Error adopted = adoptReply(model, outcome, stage);
    weights.reattach(graph);
    return adopted;
  }

  if (outcome.late) {
    weights.reattach(graph);
    return makeError("libonnx did not finish " + stage + " within " +
                     describeTimeLimit() +
                     "; the model is malformed or too large");
  }
  int status = outcome.status;
  int fatal = findFatalNode(process, work, argument, request, graph.node_size(),
                            &status);
  weights.reattach(graph);
  std::string crash =
      "libonnx crashed (" + describeDeath(status) + ") in " + stage.str();
  if (fatal < 0)
    return makeError(crash + " on this model");
  const onnx::NodeProto &node = graph.node(fatal);
  int64_t opset = isDefaultDomain(node.domain()) ? getDefaultOpset(model) : -1;
  return makeError(describeNode(node, opset, fatal) + ": " + crash +
                   "; its inputs or attributes are malformed");
}
