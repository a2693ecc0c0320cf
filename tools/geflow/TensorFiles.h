//===- TensorFiles.h - tensors in .pb (ONNX TensorProto) and .npy files -*- C++
//-*-===//
//
// `geflow run` reads inputs and writes outputs in either format, chosen by the
// file's extension; the conformance runner reads the ONNX backend test data.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_TENSORFILES_H
#define GEFLOW_TOOLS_GEFLOW_TENSORFILES_H

#include "executor/model/om.pb.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace geflow::om {
class OutputFiles;
}

namespace onnx {
class TensorProto;
}

namespace geflow::cli {

struct HostTensor {
  std::string name; // the TensorProto's name, or empty
  om::DataType dtype = om::DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes; // dense, row-major, little-endian

  int64_t numElements() const;
  /// Bytes of `shape` elements of `dtype`; none when a dim is negative or the
  /// product overflows.
  std::optional<uint64_t> byteSize() const;
};

/// "float32[1,3,224,224]" for messages.
std::string describe(om::DataType dtype, const std::vector<int64_t> &shape);

/// Reads `path` as .npy or, for any other extension, as an ONNX TensorProto.
/// A tensor declared larger than `maxTensorBytes` is refused before its data
/// is copied.
llvm::Expected<HostTensor> readTensorFile(const std::string &path,
                                          uint64_t maxTensorBytes = UINT64_MAX);
/// An ONNX TensorProto (raw or typed data) as a host tensor; errors name
/// `where`.
llvm::Expected<HostTensor> fromTensorProto(const onnx::TensorProto &proto,
                                           const std::string &where);
/// `tensor` as a TensorProto with raw_data.
onnx::TensorProto toTensorProto(const HostTensor &tensor);
/// ONNX's TensorProto element type of `dtype` and back; 0 / DT_UNDEFINED
/// when there is none.
int onnxElementType(om::DataType dtype);
om::DataType dataTypeOfOnnx(int onnxType);

/// Writes `tensor` as .npy or .pb by `path`'s extension, atomically.
llvm::Error writeTensorFile(const HostTensor &tensor, const std::string &path);
/// The same, staged in `files` to be committed with other outputs.
llvm::Error stageTensorFile(const HostTensor &tensor, const std::string &path,
                            om::OutputFiles &files);

/// Empty when `got` has `want`'s type and shape and every element satisfies
/// |got - want| <= atol + rtol * |want| (NaN matches NaN; integers within atol
/// alone, so exactly when atol < 1; booleans equal); otherwise what differs
/// first, e.g. "element 3: got 0.5, want 1".
std::string compareTensors(const HostTensor &got, const HostTensor &want,
                           double rtol, double atol);

/// `geflow run --expect`: compares each output named by a "NAME=FILE" spec
/// with its reference file and prints a line per match.
llvm::Error checkExpectedOutputs(const std::vector<HostTensor> &outputs,
                                 const std::vector<std::string> &specs,
                                 double rtol, double atol);

/// Fills a tensor with seeded pseudo-random values: floats in [-1, 1), integers
/// in [0, 10), booleans.
HostTensor randomTensor(om::DataType dtype, const std::vector<int64_t> &shape,
                        uint64_t seed);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_TENSORFILES_H
