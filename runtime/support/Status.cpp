//===- Status.cpp ---------------------------------------------------------===//
#include "runtime/support/Status.h"

namespace geflow::rt {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kInvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::kNotFound:
    return "NOT_FOUND";
  case StatusCode::kInvalidSpec:
    return "INVALID_SPEC";
  case StatusCode::kOutOfMemory:
    return "OUT_OF_MEMORY";
  case StatusCode::kKernelFailed:
    return "KERNEL_FAILED";
  case StatusCode::kDeadlock:
    return "DEADLOCK";
  case StatusCode::kNotReady:
    return "NOT_READY";
  case StatusCode::kTimeout:
    return "TIMEOUT";
  case StatusCode::kFailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::kDataRace:
    return "DATA_RACE";
  case StatusCode::kInternal:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

const std::string &Status::message() const {
  static const std::string kEmpty;
  return message_ ? *message_ : kEmpty;
}

std::string Status::toString() const {
  if (isOk())
    return "OK";
  return std::string(statusCodeName(code_)) + ": " + message();
}

} // namespace geflow::rt
