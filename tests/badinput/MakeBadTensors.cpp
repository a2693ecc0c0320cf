//===- MakeBadTensors.cpp - crafted bad input tensor files ----------------===//
//
// The tensor half of geflow-make-bad-inputs: `geflow run --input x=FILE`
// files for good.onnx's input x (float32[1,4]), good and damaged, in numpy's
// .npy and ONNX's TensorProto .pb formats.
//
//===----------------------------------------------------------------------===//

#include "tests/badinput/BadInputs.h"

#include "onnx/onnx_pb.h"

#include <cstdint>

namespace geflow::badinput {
namespace {

/// A version 1.0 .npy file: magic, header length, `header` padded to 64
/// bytes and ended by a newline, then `payload`.
std::string npy(const std::string &header, const std::string &payload) {
  std::string padded = header;
  size_t total = 10 + padded.size() + 1;
  padded.append((64 - total % 64) % 64, ' ');
  padded.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(padded.size() & 0xff));
  out.push_back(static_cast<char>(padded.size() >> 8));
  return out + padded + payload;
}

std::string npyHeader(const std::string &descr, const std::string &shape) {
  return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
         shape + "), }";
}

std::string floats(size_t count) { return std::string(count * 4, '\0'); }

std::string tensorProto(int dtype, const std::vector<int64_t> &dims,
                        const std::string &raw) {
  onnx::TensorProto t;
  t.set_name("x");
  t.set_data_type(dtype);
  for (int64_t d : dims)
    t.add_dims(d);
  t.set_raw_data(raw);
  return t.SerializeAsString();
}

} // namespace

void writeTensorCases(const std::string &dir) {
  auto put = [&](const std::string &name, const std::string &bytes) {
    writeFile(dir + "/" + name, bytes);
  };
  std::string good = npy(npyHeader("<f4", "1, 4"), floats(4));
  put("x_good.npy", good);
  put("x_truncated.npy", good.substr(0, good.size() - 5));
  put("x_header_only.npy", good.substr(0, 20));
  put("x_bad_magic.npy", "NOTNUMPY" + good.substr(8));
  put("x_empty.npy", "");
  put("x_wrong_shape.npy", npy(npyHeader("<f4", "2, 4"), floats(8)));
  put("x_wrong_dtype.npy",
      npy(npyHeader("<i8", "1, 4"), std::string(32, '\0')));
  put("x_big_endian.npy", npy(npyHeader(">f4", "1, 4"), floats(4)));
  put("x_fortran.npy",
      npy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 4), }",
          floats(4)));
  put("x_no_shape.npy",
      npy("{'descr': '<f4', 'fortran_order': False, }", floats(4)));
  put("x_negative_dim.npy", npy(npyHeader("<f4", "-1, 4"), floats(4)));
  put("x_huge_declared.npy",
      npy(npyHeader("<f4", "1099511627776,"), floats(4)));
  put("x_overflow_dims.npy",
      npy(npyHeader("<f4", "4294967296, 4294967296"), ""));
  put("x_dim_not_a_number.npy",
      npy(npyHeader("<f4", "99999999999999999999999, 4"), floats(4)));
  // Header length beyond the end of the file.
  std::string longHeader = good;
  longHeader[8] = '\xff';
  longHeader[9] = '\xff';
  put("x_header_len_huge.npy", longHeader);

  put("x_good.pb", tensorProto(onnx::TensorProto::FLOAT, {1, 4}, floats(4)));
  put("x_wrong_dtype.pb",
      tensorProto(onnx::TensorProto::INT64, {1, 4}, std::string(32, '\0')));
  put("x_huge_dims.pb",
      tensorProto(onnx::TensorProto::FLOAT, {int64_t(1) << 40}, floats(4)));
  put("x_overflow_dims.pb",
      tensorProto(onnx::TensorProto::FLOAT,
                  {int64_t(1) << 32, int64_t(1) << 32}, ""));
  put("x_negative_dim.pb",
      tensorProto(onnx::TensorProto::FLOAT, {1, -4}, floats(4)));
  put("x_garbage.pb", std::string("\xff\xff\xff\xff\x0f", 5));
  std::string pb = tensorProto(onnx::TensorProto::FLOAT, {1, 4}, floats(4));
  put("x_truncated.pb", pb.substr(0, pb.size() - 3));
}

} // namespace geflow::badinput
