//===- OnnxImporterTestFixture.h - importing models built in code -*- C++
//-*-===//
#ifndef GEFLOW_TESTS_UNIT_FRONTEND_ONNXIMPORTERTESTFIXTURE_H
#define GEFLOW_TESTS_UNIT_FRONTEND_ONNXIMPORTERTESTFIXTURE_H

#include "frontends/onnx/OnnxImporter.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace geflow::test {

class OnnxImporterTest : public ::testing::Test {
protected:
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};

  mlir::OwningOpRef<mlir::ModuleOp>
  importOk(const onnx::ModelProto &model,
           const OnnxImportOptions &options = {}) {
    auto module = importOnnxModel(context, model, "test.onnx", options);
    if (!module) {
      ADD_FAILURE() << "import failed: " << llvm::toString(module.takeError());
      return {};
    }
    EXPECT_TRUE(mlir::succeeded(mlir::verify(**module)));
    return std::move(*module);
  }

  std::string importError(const onnx::ModelProto &model,
                          const OnnxImportOptions &options = {}) {
    auto module = importOnnxModel(context, model, "test.onnx", options);
    if (module) {
      ADD_FAILURE() << "import unexpectedly succeeded";
      return "";
    }
    return llvm::toString(module.takeError());
  }

  static mlir::func::FuncOp mainFunc(mlir::ModuleOp module) {
    return module.lookupSymbol<mlir::func::FuncOp>("main");
  }

  static std::vector<mlir::Operation *> opsNamed(mlir::ModuleOp module,
                                                 llvm::StringRef name) {
    std::vector<mlir::Operation *> ops;
    module.walk([&](mlir::Operation *op) {
      if (op->getName().getStringRef() == name)
        ops.push_back(op);
    });
    return ops;
  }

  static std::string typeStr(mlir::Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    type.print(os);
    return os.str();
  }

  static void expectAllStatic(mlir::ModuleOp module) {
    module.walk([&](mlir::Operation *op) {
      for (mlir::Type type : op->getResultTypes()) {
        if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type)) {
          EXPECT_TRUE(shaped.hasStaticShape())
              << op->getName().getStringRef().str() << " has " << typeStr(type);
        }
      }
    });
  }
};

} // namespace geflow::test

#endif // GEFLOW_TESTS_UNIT_FRONTEND_ONNXIMPORTERTESTFIXTURE_H
