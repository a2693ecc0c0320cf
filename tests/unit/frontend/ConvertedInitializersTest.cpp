//===- ConvertedInitializersTest.cpp - initializers converted ahead -------===//
//
// The initializers converted while shapes are inferred are exactly those the
// import would convert itself, the proto is left as it was, and a tensor
// whose dims changed since is converted again by the import.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/ConvertedInitializers.h"
#include "frontends/onnx/MappedTensors.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace geflow;
using namespace geflow::test;

namespace {

TEST(ConvertedInitializers, ConvertsWhatTheImportWouldAndLeavesTheProto) {
  OnnxModelBuilder b;
  b.input("x", {int64_t(2), int64_t(4)});
  b.input("shadowed", {int64_t(4)});
  b.floatInit("w", {4, 4}, std::vector<float>(16, 0.25f));
  b.floatInit("unused", {4}, std::vector<float>(4, 1.0f));
  b.floatInit("shadowed", {4}, std::vector<float>(4, 2.0f));
  // Its raw_data the import would move out of the proto: left to it.
  size_t bigCount = onnxfe::MappedTensors::kMinBytes / sizeof(float);
  b.floatInit("big", {int64_t(bigCount)}, std::vector<float>(bigCount, 3.0f));
  b.node("MatMul", {"x", "w"}, {"m"});
  b.node("Add", {"m", "shadowed"}, {"a"});
  b.node("Mul", {"a", "big"}, {"y"});
  b.output("y");

  mlir::MLIRContext context;
  onnxfe::ConvertedInitializers converted;
  converted.convert(context, b.model.graph(), /*mapped=*/nullptr);

  const onnx::GraphProto &graph = b.model.graph();
  mlir::ElementsAttr w = converted.lookup(graph.initializer(0));
  ASSERT_TRUE(w);
  auto dense = llvm::cast<mlir::DenseElementsAttr>(w);
  EXPECT_EQ(dense.getType().getShape(), llvm::ArrayRef<int64_t>({4, 4}));
  EXPECT_EQ(dense.getValues<float>()[15], 0.25f);
  EXPECT_FALSE(converted.lookup(graph.initializer(1))); // nobody reads it
  EXPECT_FALSE(converted.lookup(graph.initializer(2))); // the input wins
  EXPECT_FALSE(converted.lookup(graph.initializer(3))); // moved by the import
  // The proto keeps its data: shape refinement may read it still.
  EXPECT_EQ(graph.initializer(0).raw_data().size(), 16 * sizeof(float));
  EXPECT_EQ(graph.initializer(3).raw_data().size(), bigCount * sizeof(float));

  // Dims changed since (as a legacy PRelu slope's are): converted again.
  onnx::TensorProto reshaped = graph.initializer(0);
  reshaped.clear_dims();
  reshaped.add_dims(16);
  EXPECT_FALSE(converted.lookup(reshaped));
}

} // namespace
