//===- geflow-opt.cpp - MlirOptMain driver for the ge dialect -------------===//
//
// Runs any geflow pass (and MLIR's generic ones) on textual IR; the lit tests
// under tests/lit drive every pass through it.
//
//===----------------------------------------------------------------------===//

#include "ir/GeDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  geflow::passes::registerGePasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::ge::GeDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "geflow optimizer driver\n", registry));
}
