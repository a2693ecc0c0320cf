//===- Status.h - Explicit status results for the runtime -----------------===//
//
// Every runtime call returns a Status. No exception crosses the runtime API; a
// Status carries a code (mapped 1:1 onto ACL error integers by the C API) and a
// one-line message saying what went wrong and where.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SUPPORT_STATUS_H
#define GEFLOW_RUNTIME_SUPPORT_STATUS_H

#include <memory>
#include <string>
#include <utility>

namespace geflow::rt {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument,    // A parameter is out of range or null.
  kNotFound,           // A preset, file or handle does not exist.
  kInvalidSpec,        // A SoC spec is malformed or inconsistent.
  kOutOfMemory,        // The device pool limit was reached.
  kKernelFailed,       // A kernel's host function reported an error.
  kDeadlock,           // A wait can never be satisfied.
  kNotReady,           // Query: the work has not completed yet.
  kTimeout,            // A bounded wait expired (aclrtProcessReport).
  kFailedPrecondition, // The call is legal but not in this state.
  kDataRace,           // The stream sanitizer found unordered accesses.
  kInternal,
};

/// Returns the name of `code`, e.g. "DEADLOCK".
const char *statusCodeName(StatusCode code);

/// A code plus a message. The OK status holds no allocation, so returning it on
/// the hot path (every launch) costs a register.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code),
        message_(code == StatusCode::kOk ? nullptr
                                         : std::make_shared<const std::string>(
                                               std::move(message))) {}

  static Status ok() { return Status(); }

  bool isOk() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  const std::string &message() const;
  /// "DEADLOCK: stream 1 waits on event 0 ..." for logs and test failures.
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::kOk;
  // Shared so that copying a failed status (e.g. a sticky stream error reported
  // to several synchronize calls) does not copy the text.
  std::shared_ptr<const std::string> message_;
};

inline Status makeStatus(StatusCode code, std::string message) {
  return Status(code, std::move(message));
}

} // namespace geflow::rt

#define GEFLOW_RT_RETURN_IF_ERROR(expr)                                        \
  do {                                                                         \
    ::geflow::rt::Status _st = (expr);                                         \
    if (!_st.isOk())                                                           \
      return _st;                                                              \
  } while (false)

#endif // GEFLOW_RUNTIME_SUPPORT_STATUS_H
