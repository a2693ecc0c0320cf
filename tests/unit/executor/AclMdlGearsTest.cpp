//===- AclMdlGearsTest.cpp - aclmdl* on models with gears, as CANN uses it ===//

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "tests/unit/executor/TestGearModels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

using namespace geflow;
using geflow::testing::addReluGearModel;
using geflow::testing::addReluModel;
using geflow::testing::gearExpected;

namespace {

class AclMdlGears : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    for (const std::string &p : paths_)
      std::remove(p.c_str());
    aclrtResetDevice(0);
    aclFinalize();
  }

  uint32_t load(const om::OmModel &model) {
    std::string path = ::testing::TempDir() + "geflow_aclmdl_gears_" +
                       std::to_string(::getpid()) + "_" +
                       std::to_string(paths_.size()) + ".om";
    rt::Status st = om::writeOmFile(model, path);
    EXPECT_TRUE(st.isOk()) << st.toString();
    paths_.push_back(path);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    return id;
  }

  /// The model's inputs (x, then ACL_DYNAMIC_TENSOR_NAME) and output, sized
  /// as the description says, which serves every gear.
  struct Io {
    std::vector<float> x, y;
    std::vector<int64_t> dynamic;
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    ~Io() {
      for (aclmdlDataset *ds : {in, out}) {
        for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
          aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
        aclmdlDestroyDataset(ds);
      }
    }
  };
  static void prepare(aclmdlDesc *desc, Io &io) {
    io.x.assign(aclmdlGetInputSizeByIndex(desc, 0) / 4, 0.0f);
    io.dynamic.assign(aclmdlGetInputSizeByIndex(desc, 1) / 8, 0);
    io.y.assign(aclmdlGetOutputSizeByIndex(desc, 0) / 4, -1.0f);
    aclmdlAddDatasetBuffer(io.in,
                           aclCreateDataBuffer(io.x.data(), io.x.size() * 4));
    aclmdlAddDatasetBuffer(
        io.in, aclCreateDataBuffer(io.dynamic.data(), io.dynamic.size() * 8));
    aclmdlAddDatasetBuffer(io.out,
                           aclCreateDataBuffer(io.y.data(), io.y.size() * 4));
  }
  /// Runs with the first `n` elements of x set; checks them.
  static void runAndCheck(uint32_t id, Io &io, size_t n) {
    for (size_t i = 0; i < n; ++i)
      io.x[i] = float(int(i * 7) % 11) - 4.0f;
    ASSERT_EQ(aclmdlExecute(id, io.in, io.out), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> x(io.x.begin(), io.x.begin() + n),
        y(io.y.begin(), io.y.begin() + n);
    EXPECT_EQ(y, gearExpected(x)) << n << " elements";
  }
  static std::vector<int64_t> curOutputDims(aclmdlDesc *desc) {
    aclmdlIODims dims;
    EXPECT_EQ(aclmdlGetCurOutputDims(desc, 0, &dims), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    return std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount);
  }
  static std::string lastError() { return aclGetRecentErrMsg(); }

  std::vector<std::string> paths_;
};

TEST_F(AclMdlGears, DynamicBatch) {
  uint32_t id = load(addReluGearModel({1, 2, 4}));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  // x as compiled, then the gear input; sizes and output dims the largest's.
  ASSERT_EQ(aclmdlGetNumInputs(desc), 2u);
  size_t index = 0;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &index),
            ACL_SUCCESS);
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 1), ACL_INT64);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), 8u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 64u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 64u);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount),
            (std::vector<int64_t>{-1, 4}));
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount),
            (std::vector<int64_t>{4, 4}));

  aclmdlBatch batch;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  ASSERT_EQ(batch.batchCount, 3u);
  EXPECT_EQ(batch.batch[0], 1u);
  EXPECT_EQ(batch.batch[1], 2u);
  EXPECT_EQ(batch.batch[2], 4u);
  aclmdlHW hw;
  ASSERT_EQ(aclmdlGetDynamicHW(desc, size_t(-1), &hw), ACL_SUCCESS);
  EXPECT_EQ(hw.hwCount, 0u);
  size_t gearCount = 9;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc, size_t(-1), &gearCount),
            ACL_SUCCESS);
  EXPECT_EQ(gearCount, 0u);

  // Before any gear is set: the largest gear's output dims.
  EXPECT_EQ(curOutputDims(desc), (std::vector<int64_t>{4, 4}));
  Io io;
  prepare(desc, io);
  for (uint64_t b : {2u, 4u, 1u, 2u}) {
    ASSERT_EQ(aclmdlSetDynamicBatchSize(id, io.in, index, b), ACL_SUCCESS)
        << lastError();
    EXPECT_EQ(io.dynamic[0], int64_t(b));
    EXPECT_EQ(curOutputDims(desc), (std::vector<int64_t>{int64_t(b), 4}));
    runAndCheck(id, io, b * 4);
  }
  // Asynchronously too: the gear travels in the dataset.
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id, io.in, index, 4), ACL_SUCCESS);
  io.y.assign(io.y.size(), -1.0f);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecuteAsync(id, io.in, io.out, stream), ACL_SUCCESS)
      << lastError();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(io.y, gearExpected(io.x));
  aclrtDestroyStream(stream);
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclMdlGears, DynamicBatchErrors) {
  uint32_t id = load(addReluGearModel({1, 2, 4}));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  Io io;
  prepare(desc, io);
  std::string model = "model id " + std::to_string(id);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, io.in, 1, 3),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetDynamicBatchSize: batch size 3 is not a "
                         "compiled gear of " +
                             model + " (gears: 1,2,4)");
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, io.in, 0, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetDynamicBatchSize: index 0 is not the "
                         "ascend_mbatch_shape_data input of " +
                             model + " (1)");
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, nullptr, 1, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id + 100, io.in, 1, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicHWSize(id, io.in, 1, 2, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetDynamicHWSize: " + model +
                             " has no dynamic image size gears (it is "
                             "dynamic batch)");
  aclmdlIODims dims = {};
  dims.dimCount = 2;
  dims.dims[0] = 2;
  dims.dims[1] = 4;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id, io.in, 1, &dims),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc, size_t(-1), &dims, 3),
            ACL_ERROR_INVALID_PARAM);

  // The gear buffer names no gear until one is set.
  EXPECT_EQ(aclmdlExecute(id, io.in, io.out), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(),
            "aclmdlExecute: the ascend_mbatch_shape_data buffer names no "
            "compiled gear (gears: 1,2,4): set one with "
            "aclmdlSetDynamicBatchSize, aclmdlSetDynamicHWSize or "
            "aclmdlSetInputDynamicDims");
  // Without the gear buffer at all.
  aclmdlDataset *xOnly = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(xOnly, aclmdlGetDatasetBuffer(io.in, 0));
  EXPECT_EQ(aclmdlExecute(id, xOnly, io.out), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlExecute: 1 input buffers given, the model has "
                         "gears and takes 1 inputs then the "
                         "ascend_mbatch_shape_data buffer");
  aclmdlDestroyDataset(xOnly);
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclMdlGears, DynamicImageSize) {
  uint32_t id = load(addReluGearModel(om::GearTable::DYNAMIC_IMAGE_SIZE,
                                      {1, 1, -1, -1}, {{2, 2}, {4, 8}}));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  aclmdlHW hw;
  ASSERT_EQ(aclmdlGetDynamicHW(desc, size_t(-1), &hw), ACL_SUCCESS);
  ASSERT_EQ(hw.hwCount, 2u);
  EXPECT_EQ(hw.hw[1][0], 4u);
  EXPECT_EQ(hw.hw[1][1], 8u);
  aclmdlBatch batch;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), 16u);
  Io io;
  prepare(desc, io);
  ASSERT_EQ(aclmdlSetDynamicHWSize(id, io.in, 1, 2, 2), ACL_SUCCESS)
      << lastError();
  EXPECT_EQ(curOutputDims(desc), (std::vector<int64_t>{1, 1, 2, 2}));
  runAndCheck(id, io, 4);
  ASSERT_EQ(aclmdlSetDynamicHWSize(id, io.in, 1, 4, 8), ACL_SUCCESS);
  runAndCheck(id, io, 32);
  EXPECT_EQ(aclmdlSetDynamicHWSize(id, io.in, 8, 4, 1),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicHWSize(id, io.in, 1, 8, 4),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetDynamicHWSize: image size 8,4 is not a "
                         "compiled gear of model id " +
                             std::to_string(id) + " (gears: 2,2;4,8)");
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclMdlGears, DynamicDims) {
  uint32_t id = load(addReluGearModel(om::GearTable::DYNAMIC_DIMS, {-1, -1},
                                      {{1, 4}, {2, 8}, {3, 2}}));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  size_t gearCount = 0;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc, size_t(-1), &gearCount),
            ACL_SUCCESS);
  ASSERT_EQ(gearCount, 3u);
  aclmdlIODims gears[3];
  ASSERT_EQ(aclmdlGetInputDynamicDims(desc, size_t(-1), gears, gearCount),
            ACL_SUCCESS);
  EXPECT_EQ(gears[1].dimCount, 2u);
  EXPECT_EQ(gears[1].dims[0], 2);
  EXPECT_EQ(gears[1].dims[1], 8);
  EXPECT_EQ(gears[2].dims[0], 3);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc, size_t(-1), gears, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(),
            "aclmdlGetInputDynamicDims: gearCount 2, the model has 3 gears");
  // The largest gear is [2,8]: sizes for 16 elements.
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 64u);

  Io io;
  prepare(desc, io);
  for (const aclmdlIODims &g : {gears[1], gears[0], gears[2]}) {
    ASSERT_EQ(aclmdlSetInputDynamicDims(id, io.in, 1, &g), ACL_SUCCESS)
        << lastError();
    EXPECT_EQ(curOutputDims(desc),
              (std::vector<int64_t>{g.dims[0], g.dims[1]}));
    runAndCheck(id, io, size_t(g.dims[0] * g.dims[1]));
  }
  aclmdlIODims wrong = gears[1];
  wrong.dims[1] = 9;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id, io.in, 1, &wrong),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetInputDynamicDims: dims 2,9 is not a "
                         "compiled gear of model id " +
                             std::to_string(id) + " (gears: 1,4;2,8;3,2)");
  wrong.dimCount = 3;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id, io.in, 1, &wrong),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetInputDynamicDims(id, io.in, 1, nullptr),
            ACL_ERROR_INVALID_PARAM);
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclMdlGears, StaticModelHasNoGears) {
  uint32_t id = load(addReluModel());
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 1u);
  aclmdlBatch batch;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  EXPECT_EQ(curOutputDims(desc), (std::vector<int64_t>{2, 4}));
  aclmdlIODims dims;
  EXPECT_EQ(aclmdlGetCurOutputDims(desc, 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetCurOutputDims(nullptr, 0, &dims), ACL_ERROR_INVALID_PARAM);
  aclmdlDataset *in = aclmdlCreateDataset();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, in, 1, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lastError(), "aclmdlSetDynamicBatchSize: model id " +
                             std::to_string(id) +
                             " has no dynamic batch gears (it is static)");
  aclmdlDestroyDataset(in);
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

} // namespace
