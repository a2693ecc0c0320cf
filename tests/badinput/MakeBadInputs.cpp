//===- MakeBadInputs.cpp - the crafted files of the bad-input suite -------===//
//
//   geflow-make-bad-inputs onnx OUTDIR          models (good.onnx among them)
//   geflow-make-bad-inputs om GOOD.om OUTDIR    OM artifacts derived from GOOD
//   geflow-make-bad-inputs om-gears GEARS.om OUTDIR  damaged gear tables
//   geflow-make-bad-inputs tensors OUTDIR       .npy and .pb input files
//
//===----------------------------------------------------------------------===//

#include "tests/badinput/BadInputs.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace geflow::badinput {

void fail(const std::string &message) {
  std::cerr << "geflow-make-bad-inputs: error: " << message << "\n";
  std::exit(2);
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail("cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(bytes.data(), bytes.size()))
    fail("cannot write " + path);
}

} // namespace geflow::badinput

int main(int argc, char **argv) {
  using namespace geflow::badinput;
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "onnx" && argc == 3)
    writeOnnxCases(argv[2]);
  else if (mode == "om" && argc == 4)
    writeOmCases(argv[2], argv[3]);
  else if (mode == "om-gears" && argc == 4)
    writeGearOmCases(argv[2], argv[3]);
  else if (mode == "tensors" && argc == 3)
    writeTensorCases(argv[2]);
  else
    fail("usage: geflow-make-bad-inputs onnx DIR | om GOOD.om DIR | om-gears "
         "GEARS.om DIR | tensors DIR");
  return 0;
}
