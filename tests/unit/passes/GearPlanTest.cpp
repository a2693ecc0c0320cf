//===- GearPlanTest.cpp - ATC's gear options against the model's inputs ---===//

#include "tools/driver/Gears.h"

#include <gtest/gtest.h>

using namespace geflow;
using namespace geflow::driver;

namespace {

const std::vector<DeclaredInput> kImage = {{"data", true, {-1, 3, 224, 224}}};
const std::vector<DeclaredInput> kTokens = {{"ids", true, {-1, -1}},
                                            {"mask", true, {-1, -1}}};

std::string planError(const GearOptions &gears,
                      const std::vector<DeclaredInput> &declared,
                      const std::vector<InputShape> &shapes = {}) {
  auto plan = planGears(gears, declared, shapes);
  if (plan) {
    ADD_FAILURE() << "the plan was accepted";
    return "";
  }
  std::string message = llvm::toString(plan.takeError());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

TEST(GearPlan, BatchGearsFillDimZeroOfEveryInput) {
  GearOptions gears;
  gears.dynamicBatchSize = "1,2,4,8";
  auto plan = planGears(gears, kImage, {});
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->mode, om::GearTable::DYNAMIC_BATCH);
  EXPECT_EQ(plan->inputTemplate[0], (std::vector<int64_t>{-1, 3, 224, 224}));
  ASSERT_EQ(plan->gears.size(), 4u);
  EXPECT_EQ(plan->gears[3].dims, (std::vector<int64_t>{8}));
  EXPECT_EQ(plan->gears[3].label, "Batch_3");
  EXPECT_EQ(plan->gears[3].inputShapes[0],
            (std::vector<int64_t>{8, 3, 224, 224}));
}

TEST(GearPlan, InputShapeOpensAndFixesDims) {
  // The model's symbolic batch fixed to 1, H and W opened instead.
  GearOptions gears;
  gears.dynamicImageSize = "224,224;448,320";
  std::vector<DeclaredInput> symbolic = {{"data", true, {-1, 3, -1, -1}}};
  auto plan = planGears(gears, symbolic, {{"data", {1, 3, -1, -1}}});
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->mode, om::GearTable::DYNAMIC_IMAGE_SIZE);
  EXPECT_EQ(plan->gears[1].inputShapes[0],
            (std::vector<int64_t>{1, 3, 448, 320}));
}

TEST(GearPlan, DimsGearsFillTheMinusOnesInOrder) {
  GearOptions gears;
  gears.dynamicDims = "1,16,1,16;2,32,2,32";
  auto plan = planGears(gears, kTokens, {});
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->mode, om::GearTable::DYNAMIC_DIMS);
  EXPECT_EQ(plan->gears[1].inputShapes[0], (std::vector<int64_t>{2, 32}));
  EXPECT_EQ(plan->gears[1].inputShapes[1], (std::vector<int64_t>{2, 32}));
  EXPECT_EQ(plan->gears[0].dims, (std::vector<int64_t>{1, 16, 1, 16}));
}

TEST(GearPlan, AtcRulesEachAOneLineError) {
  GearOptions batch;
  batch.dynamicBatchSize = "1,2";
  GearOptions two = batch;
  two.dynamicDims = "1;2";
  EXPECT_NE(planError(two, kImage).find("give exactly one of"),
            std::string::npos);
  EXPECT_NE(planError(GearOptions{}, kImage).find("(0 given)"),
            std::string::npos);

  auto batchError = [&](const std::string &text,
                        const std::vector<DeclaredInput> &in = kImage) {
    GearOptions g;
    g.dynamicBatchSize = text;
    return planError(g, in);
  };
  EXPECT_NE(batchError("4").find("1 gears; ATC allows 2 to 100"),
            std::string::npos);
  std::string many;
  for (int i = 1; i <= 101; ++i)
    many += (i > 1 ? "," : "") + std::to_string(i);
  EXPECT_NE(batchError(many).find("101 gears"), std::string::npos);
  EXPECT_NE(batchError("1,2,1").find("gear 2 (1) repeats gear 0"),
            std::string::npos);
  EXPECT_NE(batchError("0,2").find("'0' is not a positive integer"),
            std::string::npos);
  EXPECT_NE(batchError("-1,2").find("'-1' is not a positive integer"),
            std::string::npos);
  EXPECT_NE(batchError("1,,2").find("'' is not a positive integer"),
            std::string::npos);
  EXPECT_NE(batchError("1,x").find("'x' is not a positive integer"),
            std::string::npos);
  EXPECT_NE(batchError("1,2", kTokens)
                .find("needs each input's -1 at dim 0, but input 'ids' has "
                      "one at dim 1"),
            std::string::npos);
  std::vector<DeclaredInput> fixed = {{"data", true, {1, 3, 224, 224}}};
  EXPECT_NE(batchError("1,2", fixed).find("no input has a -1 dim"),
            std::string::npos);
  std::vector<DeclaredInput> shapeless = {{"data", false, {}}};
  EXPECT_NE(batchError("1,2", shapeless).find("'data' has no shape"),
            std::string::npos);

  GearOptions image;
  image.dynamicImageSize = "224,224;448,448";
  EXPECT_NE(planError(image, kTokens).find("needs the -1s at H and W"),
            std::string::npos);
  image.dynamicImageSize = "224,224;448";
  EXPECT_NE(planError(image, {{"data", true, {1, 3, -1, -1}}})
                .find("gear 1 (448) has 1 value(s), the inputs' -1s need 2"),
            std::string::npos);

  GearOptions dims;
  dims.dynamicDims = "1,16,1,16;2,32";
  EXPECT_NE(planError(dims, kTokens)
                .find("gear 1 (2,32) has 2 value(s), the inputs' -1s need 4"),
            std::string::npos);
  // -1 on a dim the model fixes; --input-shape of an unknown input or rank.
  EXPECT_NE(planError(batch, kImage, {{"data", {-1, -1, 224, 224}}})
                .find("dim 1 is fixed to 3 by the model, not -1"),
            std::string::npos);
  EXPECT_NE(
      planError(batch, kImage, {{"nope", {-1}}}).find("no input named 'nope'"),
      std::string::npos);
  EXPECT_NE(planError(batch, kImage, {{"data", {-1, 3}}})
                .find("has rank 4, but 2 dims were given"),
            std::string::npos);
}

} // namespace
