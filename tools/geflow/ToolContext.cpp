//===- ToolContext.cpp ----------------------------------------------------===//

#include "tools/geflow/ToolContext.h"

#include "ir/GeDialect.h"

#include "executor/kernels/isa/CpuIsa.h"
#include "executor/model/OutputFiles.h"
#include "executor/runner/GearSelection.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace geflow;

mlir::DialectRegistry cli::makeDialectRegistry() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::ge::GeDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect>();
  return registry;
}

std::string cli::hostIsaText() {
  namespace cpu = kernels::cpu;
  std::string text = cpu::isaName(cpu::activeIsa());
  if (cpu::activeIsa() != cpu::detectedIsa())
    text += std::string(" (GEFLOW_ISA; the CPU runs ") +
            cpu::isaName(cpu::detectedIsa()) + ")";
  return text;
}

llvm::Expected<OnnxImportOptions>
cli::parseImportOptions(const std::vector<std::string> &inputShapeValues) {
  OnnxImportOptions options;
  for (const std::string &value : inputShapeValues) {
    auto shapes = parseInputShapeOption(value);
    if (!shapes)
      return shapes.takeError();
    options.inputShapes.insert(options.inputShapes.end(), shapes->begin(),
                               shapes->end());
  }
  return options;
}

llvm::Error cli::writeModule(mlir::ModuleOp module, llvm::StringRef path,
                             unsigned elideOver, bool withLocations) {
  return writeTextOutput(path, moduleText(module, elideOver, withLocations));
}

std::string cli::moduleText(mlir::ModuleOp module, unsigned elideOver,
                            bool withLocations) {
  mlir::OpPrintingFlags flags;
  if (elideOver > 0)
    flags.elideLargeElementsAttrs(elideOver);
  if (withLocations)
    flags.enableDebugInfo();
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, flags);
  return text;
}

std::string
cli::dimsText(const google::protobuf::RepeatedField<int64_t> &dims) {
  std::string text;
  for (int64_t d : dims)
    text += (text.empty() ? "" : ",") + std::to_string(d);
  return text;
}

std::string cli::shapesText(
    const google::protobuf::RepeatedPtrField<om::ShapeDef> &shapes) {
  exec::Shapes all;
  for (const om::ShapeDef &shape : shapes)
    all.emplace_back(shape.dim().begin(), shape.dim().end());
  return exec::shapesText(all);
}

llvm::Error cli::writeTextOutput(llvm::StringRef path, llvm::StringRef text) {
  if (path == "-") {
    llvm::outs() << text;
    return llvm::Error::success();
  }
  return toError(om::writeFileAtomically(path.str(), {std::string_view(text)}));
}

llvm::Error cli::inModelFile(llvm::Error error, llvm::StringRef modelPath,
                             llvm::ArrayRef<std::string> otherFiles) {
  if (!error)
    return error;
  std::string message = llvm::toString(std::move(error));
  auto names = [&](llvm::StringRef file) {
    return file.size() > 1 && llvm::StringRef(message).contains(file);
  };
  bool placed = llvm::StringRef(message).starts_with("--") ||
                names(modelPath) || llvm::any_of(otherFiles, names);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      placed ? message : "'" + modelPath.str() + "': " + message);
}

llvm::Error cli::toError(const rt::Status &status) {
  if (status.isOk())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 status.message());
}
