//===- CompileDriver.cpp - an ONNX file through the GE pipeline -----------===//

#include "tools/driver/CompileDriver.h"

#include "mlir/IR/MLIRContext.h"
#include "onnx/onnx_pb.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <memory>

namespace {
/// Compiles an imported module; `context` owns its weights. The caller
/// keeps its own reference: the module must die before the context.
llvm::Expected<geflow::driver::CompileResult>
compileImported(const std::shared_ptr<mlir::MLIRContext> &context,
                mlir::ModuleOp module, llvm::StringRef defaultName,
                const geflow::driver::CompileOptions &options,
                std::chrono::steady_clock::time_point start);
} // namespace

namespace geflow::driver {

llvm::Expected<CompileResult> compileOnnxFile(llvm::StringRef path,
                                              const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<ReadOnnxFile> file = readOnnxFile(path, options.import);
  if (!file)
    return file.takeError();
  return compileOnnxFile(std::move(*file), options, start);
}

llvm::Expected<CompileResult>
compileOnnxFile(ReadOnnxFile file, const CompileOptions &options,
                std::chrono::steady_clock::time_point start) {
  // The model's large weights stay in the context's resource blobs (the
  // file's mapping) until it is written: the model keeps the context.
  auto context = std::make_shared<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  registerOnnxImportDialects(*context);
  OnnxImportOptions importOptions = options.import;
  if (!options.streamPlanPath.empty()) {
    auto plan = streamplan::readStreamPlanFile(options.streamPlanPath);
    if (!plan)
      return plan.takeError();
    importOptions.streamPlan = std::move(*plan);
  }
  auto module = importReadOnnxFile(*context, file, importOptions);
  if (!module)
    return module.takeError();
  file.model.reset(); // the module holds what the passes need
  return compileImported(context, **module, llvm::sys::path::stem(file.path),
                         options, start);
}

llvm::Expected<CompileResult> compileOnnxModel(onnx::ModelProto model,
                                               llvm::StringRef name,
                                               const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto context = std::make_shared<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  registerOnnxImportDialects(*context);
  auto module =
      importOnnxModel(*context, std::move(model), name, options.import);
  if (!module)
    return module.takeError();
  return compileImported(context, **module, name, options, start);
}

} // namespace geflow::driver

namespace {
using namespace geflow;
using namespace geflow::driver;

llvm::Expected<CompileResult>
compileImported(const std::shared_ptr<mlir::MLIRContext> &context,
                mlir::ModuleOp module, llvm::StringRef defaultName,
                const CompileOptions &options,
                std::chrono::steady_clock::time_point start) {
  passes::CompileOptions named = options;
  if (named.modelName.empty())
    named.modelName = defaultName.str();
  llvm::Expected<om::OmModel> model =
      passes::compileModuleBorrowingWeights(module, named);
  if (!model)
    return model.takeError();

  CompileResult result;
  result.model = std::move(*model);
  result.model.keepAlive = context;
  result.validated = true; // compileModule validated it after emission
  result.stats = passes::summarize(result.model);
  result.stats.compileTimeMs = std::chrono::duration<double, std::milli>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
  return result;
}

} // namespace
