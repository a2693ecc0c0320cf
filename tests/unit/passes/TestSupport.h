//===- TestSupport.h - fixtures shared by the passes tests ------*- C++ -*-===//
#ifndef GEFLOW_TESTS_UNIT_PASSES_TESTSUPPORT_H
#define GEFLOW_TESTS_UNIT_PASSES_TESTSUPPORT_H

#include "frontends/onnx/OnnxImporter.h"
#include "ir/GeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

namespace geflow::passes::fixtures {

inline std::string tinyCnnPath() {
  return std::string(GEFLOW_SOURCE_DIR) + "/examples/models/tiny_cnn.onnx";
}

/// A context with the dialects the tests parse and import.
inline void loadDialects(mlir::MLIRContext &context) {
  context.loadDialect<mlir::ge::GeDialect, mlir::func::FuncDialect>();
}

inline mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                               const std::string &text) {
  loadDialects(context);
  return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
}

inline mlir::OwningOpRef<mlir::ModuleOp>
importTinyCnn(mlir::MLIRContext &context) {
  registerOnnxImportDialects(context);
  auto module = importOnnxFile(context, tinyCnnPath());
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return {};
  }
  return std::move(*module);
}

} // namespace geflow::passes::fixtures

#endif // GEFLOW_TESTS_UNIT_PASSES_TESTSUPPORT_H
