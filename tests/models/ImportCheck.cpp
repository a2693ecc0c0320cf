//===- ImportCheck.cpp - import one real model and check the result -------===//
//
// geflow-import-check MODEL.onnx [--input-shape NAME:D0,...]... [--expect-error
// TEXT]
//
// Imports MODEL through the frontend library, verifies the module and checks
// that every tensor in it (arguments and results of every op) is static. Prints
// the op histogram so a person can see what the exporter produced. With
// --expect-error, the import must fail with a message containing TEXT. Exit 0
// on success, 1 on failure, 77 (skip) when MODEL does not exist (the exporter
// was skipped).
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/OnnxImporter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>
#include <map>
#include <string>

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs()
        << "usage: geflow-import-check MODEL.onnx [--input-shape S]... "
           "[--expect-error TEXT]\n";
    return 2;
  }
  std::string path = argv[1];
  std::string expectError;
  geflow::OnnxImportOptions options;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--input-shape") {
      auto shapes = geflow::parseInputShapeOption(argv[i + 1]);
      if (!shapes) {
        llvm::errs() << "error: " << llvm::toString(shapes.takeError()) << "\n";
        return 2;
      }
      options.inputShapes.insert(options.inputShapes.end(), shapes->begin(),
                                 shapes->end());
    } else if (flag == "--expect-error") {
      expectError = argv[i + 1];
    } else {
      llvm::errs() << "error: unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (!std::filesystem::exists(path)) {
    llvm::errs() << "skipping: " << path << " was not exported\n";
    return 77;
  }

  mlir::MLIRContext context;
  auto module = geflow::importOnnxFile(context, path, options);
  if (!expectError.empty()) {
    if (module) {
      llvm::errs() << "FAIL: import succeeded, expected an error containing '"
                   << expectError << "'\n";
      return 1;
    }
    std::string message = llvm::toString(module.takeError());
    llvm::outs() << "error (expected): " << message << "\n";
    if (message.find(expectError) == std::string::npos) {
      llvm::errs() << "FAIL: the message does not contain '" << expectError
                   << "'\n";
      return 1;
    }
    return 0;
  }
  if (!module) {
    llvm::errs() << "FAIL: " << llvm::toString(module.takeError()) << "\n";
    return 1;
  }
  if (mlir::failed(mlir::verify(**module))) {
    llvm::errs() << "FAIL: the module does not verify\n";
    return 1;
  }
  std::map<std::string, int> histogram;
  int dynamic = 0, tensors = 0;
  (*module)->walk([&](mlir::Operation *op) {
    histogram[op->getName().getStringRef().str()]++;
    auto check = [&](mlir::Type type) {
      if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type)) {
        ++tensors;
        if (!shaped.hasStaticShape()) {
          ++dynamic;
          llvm::errs() << "dynamic: " << op->getName() << " " << type << "\n";
        }
      }
    };
    for (mlir::Type type : op->getResultTypes())
      check(type);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument arg : block.getArguments())
          check(arg.getType());
  });
  llvm::outs() << path << ": " << tensors
               << " tensors, all static: " << (dynamic ? "no" : "yes")
               << "\n  ops:";
  for (const auto &[name, count] : histogram)
    llvm::outs() << " " << name << "=" << count;
  llvm::outs() << "\n";
  return dynamic ? 1 : 0;
}
