//===- PyGeflow.h - What the Python module's files share ---------*- C++
//-*-===//
//
// The module `geflow` (bindings/python) is two classes over the C++ APIs that
// `geflow compile` and `geflow run` use: compile() over the driver
// (tools/driver/CompileDriver.h) and InferenceSession over the model executor
// (executor/runner/ModelExecutor.h). This header is what PyCompile.cpp,
// PySession.cpp and Module.cpp share: the error type and the compile entry
// point a session calls for an .onnx file.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_BINDINGS_PYTHON_PYGEFLOW_H
#define GEFLOW_BINDINGS_PYTHON_PYGEFLOW_H

#include "runtime/support/Status.h"

#include "llvm/Support/Error.h"

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace geflow::python {

/// geflow.GeflowError (a RuntimeError): the one-line message of the C++ side.
struct GeflowError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws GeflowError with `error`'s message (nothing when it is success).
void throwIfError(llvm::Error error);
void throwIfError(const rt::Status &status);

/// The OM bytes of the .onnx file at `path`, compiled for `soc` with the
/// defaults of `geflow compile` (and CANN's DUMP_GE_GRAPH switches).
std::string compileOnnxToBytes(const std::string &path, const std::string &soc);

void bindCompile(pybind11::module_ &m);
void bindSession(pybind11::module_ &m);

} // namespace geflow::python

#endif // GEFLOW_BINDINGS_PYTHON_PYGEFLOW_H
