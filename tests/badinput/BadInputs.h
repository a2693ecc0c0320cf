//===- BadInputs.h - geflow-make-bad-inputs, shared pieces ------*- C++ -*-===//
//
// geflow-make-bad-inputs writes the crafted files of the bad-input suite
// (run_badinput.py): ONNX models (MakeBadOnnx.cpp), OM artifacts derived from
// a good one (MakeBadOm.cpp, MakeBadGearOm.cpp) and tensor files
// (MakeBadTensors.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_BADINPUT_BADINPUTS_H
#define GEFLOW_TESTS_BADINPUT_BADINPUTS_H

#include "executor/model/OmModel.h"

#include <string>

namespace geflow::badinput {

[[noreturn]] void fail(const std::string &message);
std::string readFile(const std::string &path);
void writeFile(const std::string &path, const std::string &bytes);

/// DIR/<case>.onnx for every crafted model, good.onnx among them.
void writeOnnxCases(const std::string &dir);
/// DIR/<case>.om for every damage done to `goodOm`.
void writeOmCases(const std::string &goodOm, const std::string &dir);
/// DIR/gears_<case>.om for every damage done to the gear table or a gear's
/// program of `gearsOm`, a model with two gears (MakeBadGearOm.cpp).
void writeGearOmCases(const std::string &gearsOm, const std::string &dir);
/// An OM file's bytes as the compiler's OmModel (checksums not checked), and
/// back (with fresh checksums).
om::OmModel decode(const std::string &bytes);
std::string encode(const om::OmModel &model);
/// DIR/<case>.npy and .pb for every damaged tensor file.
void writeTensorCases(const std::string &dir);

} // namespace geflow::badinput

#endif // GEFLOW_TESTS_BADINPUT_BADINPUTS_H
