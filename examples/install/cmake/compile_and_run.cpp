//===- compile_and_run.cpp - geflow::compiler and geflow::acl together ----===//
//
// compile_and_run MODEL.onnx OUT.om: compiles with the driver that `geflow
// compile` uses (tools/driver/CompileDriver.h), writes the OM file, then
// loads and executes it once with zeros through aclmdl*. Proves that both
// CMake targets of the installed package link and run in one program.
//
//===----------------------------------------------------------------------===//
#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "tools/driver/CompileDriver.h"

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: compile_and_run MODEL.onnx OUT.om\n");
    return 2;
  }
  auto result = geflow::driver::compileOnnxFile(argv[1]);
  if (!result) {
    std::fprintf(stderr, "compile_and_run: %s\n",
                 llvm::toString(result.takeError()).c_str());
    return 1;
  }
  if (!geflow::om::writeOmFile(result->model, argv[2]).isOk())
    return 1;
  std::printf("compile_and_run: %s -> %s, %llu kernels\n", argv[1], argv[2],
              static_cast<unsigned long long>(result->stats.kernelCount));

  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
    return 1;
  uint32_t id = 0;
  if (aclmdlLoadFromFile(argv[2], &id) != ACL_SUCCESS) {
    std::fprintf(stderr, "compile_and_run: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclmdlDesc *desc = aclmdlCreateDesc();
  aclmdlGetDesc(desc, id);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  std::vector<std::vector<char>> buffers;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    buffers.emplace_back(aclmdlGetInputSizeByIndex(desc, i));
    aclmdlAddDatasetBuffer(
        in, aclCreateDataBuffer(buffers.back().data(), buffers.back().size()));
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(desc); ++i) {
    buffers.emplace_back(aclmdlGetOutputSizeByIndex(desc, i));
    aclmdlAddDatasetBuffer(
        out, aclCreateDataBuffer(buffers.back().data(), buffers.back().size()));
  }
  aclError executed = aclmdlExecute(id, in, out);
  std::printf("compile_and_run: executed, %s\n",
              executed == ACL_SUCCESS ? "ok" : aclGetRecentErrMsg());
  for (aclmdlDataset *set : {in, out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
    aclmdlDestroyDataset(set);
  }
  aclmdlDestroyDesc(desc);
  aclmdlUnload(id);
  aclrtResetDevice(0);
  aclFinalize();
  return executed == ACL_SUCCESS ? 0 : 1;
}
