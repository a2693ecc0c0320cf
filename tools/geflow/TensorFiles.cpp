//===- TensorFiles.cpp ----------------------------------------------------===//

#include "tools/geflow/TensorFiles.h"

#include "executor/model/OutputFiles.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <random>
#include <regex>

using namespace geflow;
using namespace geflow::cli;
using llvm::createStringError;
using llvm::Error;
using llvm::Expected;

namespace {

struct DTypeInfo {
  om::DataType dtype;
  int onnxType;
  const char *npyDescr;
  const char *name;
  size_t size;
};

// One row per element type a tensor file may hold: GE's number, ONNX's number,
// numpy's descr (little-endian), our name.
constexpr DTypeInfo kDTypes[] = {
    {om::DT_FLOAT, onnx::TensorProto::FLOAT, "<f4", "float32", 4},
    {om::DT_DOUBLE, onnx::TensorProto::DOUBLE, "<f8", "float64", 8},
    {om::DT_FLOAT16, onnx::TensorProto::FLOAT16, "<f2", "float16", 2},
    {om::DT_BF16, onnx::TensorProto::BFLOAT16, nullptr, "bfloat16", 2},
    {om::DT_INT8, onnx::TensorProto::INT8, "|i1", "int8", 1},
    {om::DT_INT16, onnx::TensorProto::INT16, "<i2", "int16", 2},
    {om::DT_INT32, onnx::TensorProto::INT32, "<i4", "int32", 4},
    {om::DT_INT64, onnx::TensorProto::INT64, "<i8", "int64", 8},
    {om::DT_UINT8, onnx::TensorProto::UINT8, "|u1", "uint8", 1},
    {om::DT_UINT16, onnx::TensorProto::UINT16, "<u2", "uint16", 2},
    {om::DT_UINT32, onnx::TensorProto::UINT32, "<u4", "uint32", 4},
    {om::DT_UINT64, onnx::TensorProto::UINT64, "<u8", "uint64", 8},
    {om::DT_BOOL, onnx::TensorProto::BOOL, "|b1", "bool", 1},
};

const DTypeInfo *byGe(om::DataType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return &info;
  return nullptr;
}
const DTypeInfo *byOnnx(int onnxType) {
  for (const DTypeInfo &info : kDTypes)
    if (info.onnxType == onnxType)
      return &info;
  return nullptr;
}
const DTypeInfo *byNpy(llvm::StringRef descr) {
  // numpy writes '<' for little-endian and '|' where order does not apply;
  // '=' is native, which is little-endian on every host we run on.
  for (const DTypeInfo &info : kDTypes)
    if (info.npyDescr &&
        (descr == info.npyDescr ||
         descr.drop_front() == llvm::StringRef(info.npyDescr).drop_front()) &&
        descr[0] != '>')
      return &info;
  return nullptr;
}

bool isNpy(llvm::StringRef path) {
  return llvm::sys::path::extension(path).equals_insensitive(".npy");
}

Error fileError(const std::string &path, const llvm::Twine &what) {
  return createStringError(llvm::inconvertibleErrorCode(),
                           "'" + path + "': " + what);
}

// Copies the typed repeated field of a TensorProto into dense bytes of `info`.
template <typename Field, typename T>
void copyField(const Field &field, std::vector<uint8_t> &bytes) {
  bytes.resize(field.size() * sizeof(T));
  T *out = reinterpret_cast<T *>(bytes.data());
  for (int i = 0; i < field.size(); ++i)
    out[i] = static_cast<T>(field.Get(i));
}

/// The declared size of `tensor` (shape and type set, no data yet) within
/// `maxBytes`, before any of its data is copied.
Error checkDeclaredSize(const HostTensor &tensor, const std::string &path,
                        uint64_t maxBytes) {
  std::optional<uint64_t> bytes = tensor.byteSize();
  if (bytes && *bytes <= maxBytes)
    return Error::success();
  return fileError(path, describe(tensor.dtype, tensor.shape) + " is " +
                             (bytes ? std::to_string(*bytes) + " bytes"
                                    : std::string("more than 2^64 bytes")) +
                             ", over the limit of " + std::to_string(maxBytes) +
                             " (--max-tensor-bytes)");
}

Expected<HostTensor> parseTensorProto(const onnx::TensorProto &proto,
                                      const std::string &path,
                                      uint64_t maxBytes) {
  const DTypeInfo *info = byOnnx(proto.data_type());
  if (!info)
    return fileError(path, "tensor element type " +
                               llvm::Twine(proto.data_type()) +
                               " is not supported");
  if (proto.data_location() == onnx::TensorProto::EXTERNAL)
    return fileError(path, "tensors with external data are not supported");
  HostTensor tensor;
  tensor.name = proto.name();
  tensor.dtype = info->dtype;
  for (int64_t d : proto.dims()) {
    if (d < 0)
      return fileError(path, "negative dimension " + llvm::Twine(d));
    tensor.shape.push_back(d);
  }
  if (Error e = checkDeclaredSize(tensor, path, maxBytes))
    return std::move(e);
  if (proto.has_raw_data()) {
    tensor.bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
  } else {
    switch (info->dtype) {
    case om::DT_FLOAT:
      copyField<decltype(proto.float_data()), float>(proto.float_data(),
                                                     tensor.bytes);
      break;
    case om::DT_DOUBLE:
      copyField<decltype(proto.double_data()), double>(proto.double_data(),
                                                       tensor.bytes);
      break;
    case om::DT_INT64:
      copyField<decltype(proto.int64_data()), int64_t>(proto.int64_data(),
                                                       tensor.bytes);
      break;
    case om::DT_INT32:
      copyField<decltype(proto.int32_data()), int32_t>(proto.int32_data(),
                                                       tensor.bytes);
      break;
    case om::DT_INT16:
      copyField<decltype(proto.int32_data()), int16_t>(proto.int32_data(),
                                                       tensor.bytes);
      break;
    case om::DT_INT8:
      copyField<decltype(proto.int32_data()), int8_t>(proto.int32_data(),
                                                      tensor.bytes);
      break;
    case om::DT_UINT8:
    case om::DT_BOOL:
      copyField<decltype(proto.int32_data()), uint8_t>(proto.int32_data(),
                                                       tensor.bytes);
      break;
    case om::DT_UINT16:
    case om::DT_FLOAT16:
    case om::DT_BF16:
      copyField<decltype(proto.int32_data()), uint16_t>(proto.int32_data(),
                                                        tensor.bytes);
      break;
    case om::DT_UINT32:
      copyField<decltype(proto.uint64_data()), uint32_t>(proto.uint64_data(),
                                                         tensor.bytes);
      break;
    case om::DT_UINT64:
      copyField<decltype(proto.uint64_data()), uint64_t>(proto.uint64_data(),
                                                         tensor.bytes);
      break;
    default:
      break;
    }
  }
  uint64_t expected = *tensor.byteSize();
  if (tensor.bytes.size() != expected)
    return fileError(path, "holds " + llvm::Twine(tensor.bytes.size()) +
                               " bytes of data but " +
                               describe(tensor.dtype, tensor.shape) +
                               " needs " + llvm::Twine(expected));
  return tensor;
}

Expected<HostTensor> readNpy(llvm::StringRef data, const std::string &path,
                             uint64_t maxBytes) {
  static const char kMagic[] = "\x93NUMPY";
  if (data.size() < 10 || !data.starts_with(llvm::StringRef(kMagic, 6)))
    return fileError(path, "not a .npy file (bad magic)");
  unsigned major = static_cast<uint8_t>(data[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<uint8_t>(data[8]) | static_cast<uint8_t>(data[9])
                                                    << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return fileError(path, "truncated .npy header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(data[8 + i]))
                   << (8 * i);
    headerStart = 12;
  } else {
    return fileError(path, ".npy format version " + llvm::Twine(major) +
                               " is not supported");
  }
  if (data.size() < headerStart + headerLen)
    return fileError(path, "truncated .npy header");
  std::string header = data.substr(headerStart, headerLen).str();

  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr'\\s*:\\s*'([^']*)'")))
    return fileError(path, ".npy header has no 'descr'");
  const DTypeInfo *info = byNpy(m[1].str());
  if (!info)
    return fileError(path,
                     ".npy element type '" + m[1].str() + "' is not supported");
  if (std::regex_search(header, m, std::regex("'fortran_order'\\s*:\\s*True")))
    return fileError(path, "Fortran-ordered .npy arrays are not supported");
  if (!std::regex_search(header, m,
                         std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)")))
    return fileError(path, ".npy header has no 'shape'");

  HostTensor tensor;
  tensor.dtype = info->dtype;
  // The dims point into `shapeText`, which must outlive them.
  std::string shapeText = m[1].str();
  llvm::SmallVector<llvm::StringRef> dims;
  llvm::StringRef(shapeText).split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef dim : dims) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t value;
    if (dim.getAsInteger(10, value) || value < 0)
      return fileError(path, ".npy shape has a bad dimension '" + dim + "'");
    tensor.shape.push_back(value);
  }
  if (Error e = checkDeclaredSize(tensor, path, maxBytes))
    return std::move(e);
  size_t payload = headerStart + headerLen;
  uint64_t expected = *tensor.byteSize();
  if (data.size() - payload != expected)
    return fileError(path, "holds " + llvm::Twine(data.size() - payload) +
                               " bytes of data but " +
                               describe(tensor.dtype, tensor.shape) +
                               " needs " + llvm::Twine(expected));
  tensor.bytes.assign(data.begin() + payload, data.end());
  return tensor;
}

std::string npyBytes(const HostTensor &tensor, const DTypeInfo &info) {
  std::string shape;
  for (int64_t d : tensor.shape)
    shape += std::to_string(d) + ", ";
  if (tensor.shape.size() > 1)
    shape.resize(shape.size() - 1); // "(2, 3)" but "(4,)"
  else if (tensor.shape.size() == 1)
    shape.pop_back(), shape.back() = ',';
  std::string header = std::string("{'descr': '") + info.npyDescr +
                       "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // The whole preamble is padded with spaces to a multiple of 64 bytes and
  // ends in a newline, as numpy writes it.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  out.append(reinterpret_cast<const char *>(tensor.bytes.data()),
             tensor.bytes.size());
  return out;
}

} // namespace

std::optional<uint64_t> HostTensor::byteSize() const {
  const DTypeInfo *info = byGe(dtype);
  uint64_t bytes = info ? info->size : 0;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(bytes, uint64_t(d), &bytes))
      return std::nullopt;
  return bytes;
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string cli::describe(om::DataType dtype,
                          const std::vector<int64_t> &shape) {
  const DTypeInfo *info = byGe(dtype);
  std::string text = info ? info->name : "undefined";
  text += "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

Expected<HostTensor> cli::readTensorFile(const std::string &path,
                                         uint64_t maxTensorBytes) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fileError(path, "cannot read: " + buffer.getError().message());
  llvm::StringRef data = (*buffer)->getBuffer();
  if (isNpy(path))
    return readNpy(data, path, maxTensorBytes);
  onnx::TensorProto proto;
  if (data.size() > static_cast<size_t>(INT32_MAX) ||
      !proto.ParseFromArray(data.data(), static_cast<int>(data.size())))
    return fileError(path,
                     "not an ONNX TensorProto (truncated or another format)");
  return parseTensorProto(proto, path, maxTensorBytes);
}

Expected<HostTensor> cli::fromTensorProto(const onnx::TensorProto &proto,
                                          const std::string &where) {
  return parseTensorProto(proto, where, UINT64_MAX);
}

onnx::TensorProto cli::toTensorProto(const HostTensor &tensor) {
  onnx::TensorProto proto;
  proto.set_name(tensor.name);
  if (const DTypeInfo *info = byGe(tensor.dtype))
    proto.set_data_type(info->onnxType);
  for (int64_t d : tensor.shape)
    proto.add_dims(d);
  proto.set_raw_data(tensor.bytes.data(), tensor.bytes.size());
  return proto;
}

int cli::onnxElementType(om::DataType dtype) {
  const DTypeInfo *info = byGe(dtype);
  return info ? info->onnxType : 0;
}

om::DataType cli::dataTypeOfOnnx(int onnxType) {
  const DTypeInfo *info = byOnnx(onnxType);
  return info ? info->dtype : om::DT_UNDEFINED;
}

Error cli::stageTensorFile(const HostTensor &tensor, const std::string &path,
                           om::OutputFiles &files) {
  const DTypeInfo *info = byGe(tensor.dtype);
  if (!info)
    return fileError(path, "cannot write a tensor of undefined element type");
  std::string bytes;
  if (isNpy(path)) {
    if (!info->npyDescr)
      return fileError(path,
                       llvm::Twine(info->name) + " has no .npy form; use .pb");
    bytes = npyBytes(tensor, *info);
  } else {
    bytes = toTensorProto(tensor).SerializeAsString();
  }
  rt::Status staged = files.stage(path, {bytes});
  if (!staged.isOk())
    return createStringError(llvm::inconvertibleErrorCode(), staged.message());
  return Error::success();
}

Error cli::writeTensorFile(const HostTensor &tensor, const std::string &path) {
  om::OutputFiles files;
  if (Error e = stageTensorFile(tensor, path, files))
    return e;
  rt::Status committed = files.commit();
  if (!committed.isOk())
    return createStringError(llvm::inconvertibleErrorCode(),
                             committed.message());
  return Error::success();
}

template <typename T> static double valueAt(const uint8_t *bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
  return static_cast<double>(v);
}

/// IEEE half to float, subnormals and non-finite values included.
static double halfToDouble(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -magnitude : magnitude;
}

/// Element i of `t` as a double; false for element types we cannot read.
static bool readValue(const HostTensor &t, int64_t i, double *out) {
  const uint8_t *b = t.bytes.data();
  switch (t.dtype) {
  case om::DT_FLOAT:
    *out = valueAt<float>(b, i);
    return true;
  case om::DT_DOUBLE:
    *out = valueAt<double>(b, i);
    return true;
  case om::DT_INT64:
    *out = valueAt<int64_t>(b, i);
    return true;
  case om::DT_INT32:
    *out = valueAt<int32_t>(b, i);
    return true;
  case om::DT_INT16:
    *out = valueAt<int16_t>(b, i);
    return true;
  case om::DT_INT8:
    *out = valueAt<int8_t>(b, i);
    return true;
  case om::DT_UINT8:
  case om::DT_BOOL:
    *out = valueAt<uint8_t>(b, i);
    return true;
  case om::DT_UINT16:
    *out = valueAt<uint16_t>(b, i);
    return true;
  case om::DT_FLOAT16:
    *out = halfToDouble(valueAt<uint16_t>(b, i));
    return true;
  case om::DT_UINT32:
    *out = valueAt<uint32_t>(b, i);
    return true;
  case om::DT_UINT64:
    *out = valueAt<uint64_t>(b, i);
    return true;
  default:
    return false;
  }
}

std::string cli::compareTensors(const HostTensor &got, const HostTensor &want,
                                double rtol, double atol) {
  std::string expected = describe(want.dtype, want.shape);
  std::string given = describe(got.dtype, got.shape);
  if (expected != given)
    return "expected " + expected + ", got " + given;
  bool real = want.dtype == om::DT_FLOAT || want.dtype == om::DT_DOUBLE ||
              want.dtype == om::DT_FLOAT16;
  // Integers take atol alone (a quantized output may be off by a step with
  // --atol 1); with atol < 1 they must be equal. Booleans always must.
  double intTol = want.dtype == om::DT_BOOL ? 0.0 : atol;
  for (int64_t i = 0, n = want.numElements(); i < n; ++i) {
    double g, w;
    if (!readValue(got, i, &g) || !readValue(want, i, &w))
      return "cannot compare elements of " + expected;
    if (std::isnan(w) && std::isnan(g))
      continue;
    bool ok = !real           ? std::fabs(g - w) <= intTol
              : std::isinf(w) ? g == w
                              : std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok) {
      char text[160];
      std::snprintf(text, sizeof text, "element %lld: got %.7g, want %.7g",
                    static_cast<long long>(i), g, w);
      return text;
    }
  }
  return "";
}

Error cli::checkExpectedOutputs(const std::vector<HostTensor> &outputs,
                                const std::vector<std::string> &specs,
                                double rtol, double atol) {
  auto error = [](const llvm::Twine &message) {
    return createStringError(llvm::inconvertibleErrorCode(), message);
  };
  for (const std::string &spec : specs) {
    auto [name, file] = llvm::StringRef(spec).split('=');
    auto it = llvm::find_if(
        outputs, [&](const HostTensor &t) { return t.name == name; });
    if (file.empty() || it == outputs.end())
      return error("--expect '" + spec +
                   "': expected OUTPUT=FILE naming an output");
    auto want = readTensorFile(file.str());
    if (!want)
      return want.takeError();
    std::string diff = compareTensors(*it, *want, rtol, atol);
    if (!diff.empty())
      return error("output '" + name + "' differs from '" + file +
                   "': " + diff);
    llvm::outs() << llvm::formatv(
        "  output {0} matches {1} (rtol {2:E0}, atol {3:E0})\n", name, file,
        rtol, atol);
  }
  return Error::success();
}

HostTensor cli::randomTensor(om::DataType dtype,
                             const std::vector<int64_t> &shape, uint64_t seed) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = shape;
  const DTypeInfo *info = byGe(dtype);
  size_t size = info ? info->size : 0;
  tensor.bytes.resize(static_cast<size_t>(tensor.numElements()) * size);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
    uint8_t *p = tensor.bytes.data() + i * size;
    switch (dtype) {
    case om::DT_FLOAT: {
      float v = real(rng);
      std::memcpy(p, &v, 4);
      break;
    }
    case om::DT_DOUBLE: {
      double v = real(rng);
      std::memcpy(p, &v, 8);
      break;
    }
    case om::DT_INT64: {
      int64_t v = rng() % 10;
      std::memcpy(p, &v, 8);
      break;
    }
    case om::DT_INT32: {
      int32_t v = rng() % 10;
      std::memcpy(p, &v, 4);
      break;
    }
    case om::DT_BOOL:
      *p = rng() & 1;
      break;
    default: {
      uint64_t v = rng() % 10;
      std::memcpy(p, &v, size);
      break;
    } // small ints
    }
  }
  return tensor;
}
