//===- Module.cpp - The Python module geflow._geflow ----------------------===//
//
// geflow/__init__.py re-exports what is defined here: compile (PyCompile.cpp),
// InferenceSession and NodeArg (PySession.cpp), and GeflowError, the
// RuntimeError every failure raises with its one-line message.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/PyGeflow.h"

namespace py = pybind11;
using namespace geflow;

void python::throwIfError(llvm::Error error) {
  if (error)
    throw GeflowError(llvm::toString(std::move(error)));
}

void python::throwIfError(const rt::Status &status) {
  if (!status.isOk())
    throw GeflowError(status.message());
}

PYBIND11_MODULE(_geflow, m) {
  m.doc() = "geflow: compile ONNX models and run them on the simulated NPU";
  py::register_exception<python::GeflowError>(m, "GeflowError",
                                              PyExc_RuntimeError);
  python::bindCompile(m);
  python::bindSession(m);
}
