//===- ElementsBytesTest.cpp - a constant's bytes, however stored ---------===//

#include "ir/ElementsBytes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace mlir;

namespace {

std::vector<float> asFloats(std::optional<ArrayRef<char>> bytes) {
  if (!bytes)
    return {};
  std::vector<float> values(bytes->size() / sizeof(float));
  std::memcpy(values.data(), bytes->data(), values.size() * sizeof(float));
  return values;
}

TEST(ElementsBytes, DenseAndResourceGiveTheSameBytes) {
  MLIRContext context;
  auto type = RankedTensorType::get({2, 2}, Float32Type::get(&context));
  std::vector<float> values = {1.0f, -2.0f, 3.5f, 4.0f};
  auto dense = DenseElementsAttr::get(type, ArrayRef<float>(values));
  EXPECT_EQ(asFloats(ge::getStoredBytes(dense)), values);

  auto resource = DenseResourceElementsAttr::get(
      type, "w",
      UnmanagedAsmResourceBlob::allocateInferAlign(ArrayRef<float>(values)));
  EXPECT_EQ(asFloats(ge::getStoredBytes(resource)), values);
}

TEST(ElementsBytes, NoBytesWhereTheStorageIsNotTheLayout) {
  MLIRContext context;
  Builder b(&context);
  // A splat of several elements stores one.
  auto splat =
      DenseElementsAttr::get(RankedTensorType::get({3}, b.getF32Type()), 1.0f);
  EXPECT_FALSE(ge::getStoredBytes(splat));
  // A one-element tensor is its own splat, and its bytes are the layout.
  auto single =
      DenseElementsAttr::get(RankedTensorType::get({1}, b.getF32Type()), 2.0f);
  EXPECT_EQ(asFloats(ge::getStoredBytes(single)), std::vector<float>{2.0f});
  // MLIR packs i1 into bits; the layout has one byte per element.
  auto bools = DenseElementsAttr::get(RankedTensorType::get({2}, b.getI1Type()),
                                      ArrayRef<bool>{true, false});
  EXPECT_EQ(ge::storedElementBytes(bools.getType()), -1);
  EXPECT_FALSE(ge::getStoredBytes(bools));
  // A blob of another size than its type's is not read.
  std::vector<float> three = {1.0f, 2.0f, 3.0f};
  auto shortBlob = DenseResourceElementsAttr::get(
      RankedTensorType::get({4}, b.getF32Type()), "short",
      UnmanagedAsmResourceBlob::allocateInferAlign(ArrayRef<float>(three)));
  EXPECT_FALSE(ge::getStoredBytes(shortBlob));
}

} // namespace
