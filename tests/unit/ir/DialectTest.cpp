//===- DialectTest.cpp - ge ops built from C++, verified and folded -------===//

#include "ir/GeDialect.h"
#include "ir/GeOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
struct GeDialectTest : ::testing::Test {
  GeDialectTest() {
    DialectRegistry registry;
    ge::registerGeDialect(registry);
    registry.insert<func::FuncDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
};

TEST_F(GeDialectTest, BuildVerifyAndFoldShapeChain) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  auto f32 = b.getF32Type();
  auto x = RankedTensorType::get({2, 3, 4}, f32);
  auto out = RankedTensorType::get({2, 12}, f32);
  auto func =
      b.create<func::FuncOp>(loc, "main", b.getFunctionType({x}, {out}));
  b.setInsertionPointToEnd(func.addEntryBlock());
  auto i64 = b.getI64Type();
  Value shape = b.create<ge::ShapeOp>(loc, RankedTensorType::get({3}, i64),
                                      func.getArgument(0),
                                      b.getI64IntegerAttr(0), IntegerAttr());
  Value index = b.create<ge::ConstantOp>(
      loc, DenseElementsAttr::get(RankedTensorType::get({1}, i64), int64_t(0)));
  Value batch = b.create<ge::GatherOp>(loc, RankedTensorType::get({1}, i64),
                                       shape, index, b.getI64IntegerAttr(0));
  Value minusOne = b.create<ge::ConstantOp>(
      loc,
      DenseElementsAttr::get(RankedTensorType::get({1}, i64), int64_t(-1)));
  Value target = b.create<ge::ConcatOp>(loc, RankedTensorType::get({2}, i64),
                                        ValueRange{batch, minusOne},
                                        b.getI64IntegerAttr(0));
  Value reshaped = b.create<ge::ReshapeOp>(loc, out, func.getArgument(0),
                                           target, b.getI64IntegerAttr(0));
  b.create<func::ReturnOp>(loc, reshaped);
  ASSERT_TRUE(succeeded(verify(module)));

  ASSERT_TRUE(succeeded(
      applyPatternsAndFoldGreedily(module, RewritePatternSet(&context))));
  auto reshape = *func.getOps<ge::ReshapeOp>().begin();
  auto constant = reshape.getShape().getDefiningOp<ge::ConstantOp>();
  ASSERT_TRUE(constant);
  auto values = llvm::to_vector(
      cast<DenseIntElementsAttr>(constant.getValue()).getValues<int64_t>());
  EXPECT_EQ(values, (SmallVector<int64_t>{2, -1}));
  EXPECT_TRUE(func.getOps<ge::ShapeOp>().empty());
  module->destroy();
}

TEST_F(GeDialectTest, VerifierNamesTheOp) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%x: tensor<3x224xf32>, %w: tensor<64x3xf32>) {
      %0 = ge.conv %x, %w : (tensor<3x224xf32>, tensor<64x3xf32>) -> tensor<3x64xf32>
      return
    })mlir",
                                                             &context);
  EXPECT_FALSE(module);
  EXPECT_EQ(message,
            "'ge.conv' op input 'X' has rank 2 but Conv needs rank >= 3");
}
} // namespace
