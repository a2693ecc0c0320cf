//===- AclMdlTest.cpp - aclmdl* from host code, as a CANN program uses it -===//

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "executor/model/OmFormat.h"
#include "tests/unit/executor/TestModels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

extern "C" size_t geflowAclMdlHeaderCheck(uint32_t modelId);

using namespace geflow;
using geflow::testing::addReluExpected;
using geflow::testing::addReluModel;

namespace {

class AclMdl : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    path_ = ::testing::TempDir() + "geflow_aclmdl_" +
            std::to_string(::getpid()) + ".om";
    rt::Status st = om::writeOmFile(addReluModel(), path_);
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  void TearDown() override {
    std::remove(path_.c_str());
    aclrtResetDevice(0);
    aclFinalize();
  }

  static aclmdlDataset *datasetOf(std::vector<float> &v) {
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(v.data(), v.size() * 4));
    return ds;
  }
  static void destroy(aclmdlDataset *ds) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }

  std::string path_;
};

TEST_F(AclMdl, LoadDescribeExecute) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 1u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 32u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 32u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 0), "relu");
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 5), "");
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "x");
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 2);
  EXPECT_EQ(dims.dims[1], 4);
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dimCount, 2u);
  EXPECT_NE(aclmdlGetOutputDims(desc, 3, &dims), ACL_SUCCESS);
  size_t index = 9;
  EXPECT_EQ(aclmdlGetInputIndexByName(desc, "x", &index), ACL_SUCCESS);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(geflowAclMdlHeaderCheck(id), 2u);
  aclmdlDestroyDesc(desc);

  // Device buffers, as a CANN program would use them.
  void *devIn = nullptr, *devOut = nullptr;
  ASSERT_EQ(aclrtMalloc(&devIn, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&devOut, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  aclDataBuffer *inBuf = aclCreateDataBuffer(devIn, 32);
  ASSERT_EQ(aclmdlAddDatasetBuffer(in, inBuf), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(devOut, 32)),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetBuffer(in, 0), inBuf);
  EXPECT_EQ(aclGetDataBufferAddr(inBuf), devIn);
  EXPECT_EQ(aclGetDataBufferSizeV2(inBuf), 32u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(in, 1), nullptr);
  for (int run = 0; run < 5; ++run) {
    std::vector<float> x(8), y(8, -1.0f);
    for (int i = 0; i < 8; ++i)
      x[i] = float(i * run) - 6.0f;
    ASSERT_EQ(aclrtMemcpy(devIn, 32, x.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtMemcpy(y.data(), 32, devOut, 32, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(y, addReluExpected(x)) << "run " << run;
  }
  destroy(in);
  destroy(out);
  aclrtFree(devIn);
  aclrtFree(devOut);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AclMdl, ExecuteAsyncOnAStream) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<std::vector<float>> xs, ys;
  std::vector<aclmdlDataset *> ins, outs;
  for (int r = 0; r < 4; ++r) {
    std::vector<float> x(8);
    for (int i = 0; i < 8; ++i)
      x[i] = float((r + 1) * (i - 3));
    xs.push_back(x);
    ys.emplace_back(8, -1.0f);
  }
  for (int r = 0; r < 4; ++r) {
    ins.push_back(datasetOf(xs[r]));
    outs.push_back(datasetOf(ys[r]));
    ASSERT_EQ(aclmdlExecuteAsync(id, ins[r], outs[r], stream), ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(ys[r], addReluExpected(xs[r])) << "run " << r;
    destroy(ins[r]);
    destroy(outs[r]);
  }
  aclrtDestroyStream(stream);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

/// Runs `id` once on each of `streams` (one request each) and returns the
/// simulated device time they took together.
static double runOnStreams(const std::vector<uint32_t> &ids,
                           const std::vector<aclrtStream> &streams,
                           std::vector<std::vector<float>> &xs,
                           std::vector<std::vector<float>> &ys) {
  double t0 = 0, t1 = 0;
  EXPECT_EQ(geflowrtGetDeviceTimeUs(&t0), ACL_SUCCESS);
  std::vector<aclmdlDataset *> datasets;
  for (size_t r = 0; r < ids.size(); ++r) {
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(xs[r].data(), 32));
    aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(ys[r].data(), 32));
    EXPECT_EQ(aclmdlExecuteAsync(ids[r], in, out, streams[r]), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    datasets.push_back(in);
    datasets.push_back(out);
  }
  for (aclrtStream s : streams)
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(geflowrtGetDeviceTimeUs(&t1), ACL_SUCCESS);
  for (aclmdlDataset *ds : datasets) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }
  return t1 - t0;
}

TEST_F(AclMdl, ContextsSharingWeightsRunSideBySide) {
  uint32_t base = 0, a = 0, b = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &base), ACL_SUCCESS);
  ASSERT_EQ(geflowmdlLoadSharedWeights(base, -1, &a), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(geflowmdlLoadSharedWeights(base, 2, &b), ACL_SUCCESS);
  EXPECT_NE(a, b);
  // The contexts keep the weights alive.
  ASSERT_EQ(aclmdlUnload(base), ACL_SUCCESS);
  aclrtStream s1, s2;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  std::vector<std::vector<float>> xs = {std::vector<float>(8, 1.5f),
                                        std::vector<float>(8, -2.0f)};
  std::vector<std::vector<float>> ys(2, std::vector<float>(8, -1.0f));
  // One context, two requests in turn, against two contexts at once.
  double serial = runOnStreams({a, a}, {s1, s1}, xs, ys);
  double together = runOnStreams({a, b}, {s1, s2}, xs, ys);
  EXPECT_EQ(ys[0], addReluExpected(xs[0]));
  EXPECT_EQ(ys[1], addReluExpected(xs[1]));
  EXPECT_LT(together, 0.75 * serial) << together << " us vs " << serial;
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
  EXPECT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(b), ACL_SUCCESS);
}

TEST_F(AclMdl, PriorityOutOfRange) {
  uint32_t base = 0, ctx = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &base), ACL_SUCCESS);
  EXPECT_EQ(geflowmdlLoadSharedWeights(base, 8, &ctx), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            "geflowmdlLoadSharedWeights: priority 8 out of range [-1, 7]");
  EXPECT_EQ(geflowmdlLoadSharedWeights(999, 0, &ctx), ACL_ERROR_INVALID_PARAM);
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtCreateStreamWithConfig(&s, 8, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            "aclrtCreateStreamWithConfig: priority 8 out of range [0, 7]");
  EXPECT_EQ(aclmdlUnload(base), ACL_SUCCESS);
}

TEST_F(AclMdl, Errors) {
  // A damaged file: one line saying what is wrong.
  std::string bytes;
  ASSERT_TRUE(om::serializeOm(addReluModel(), &bytes).isOk());
  bytes[bytes.size() - 1] ^= 0x40; // the last byte of WEIGHTS
  std::string bad = path_ + ".bad.om";
  ASSERT_TRUE(om::writeFileAtomically(bad, bytes).isOk());
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(bad.c_str(), &id), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            bad + ": partition WEIGHTS: checksum mismatch");
  std::remove(bad.c_str());
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent.om", &id), ACL_ERROR_INVALID_FILE);

  EXPECT_EQ(aclmdlUnload(12345), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            "aclmdlUnload: model id 12345 is not loaded");

  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS);
  std::vector<float> x(4), y(8);
  aclmdlDataset *in = datasetOf(x), *out = datasetOf(y);
  EXPECT_EQ(aclmdlExecute(id, in, out), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            "add_relu: input 0 'x': buffer has 16 bytes, needs 32");
  EXPECT_EQ(aclmdlExecute(id, nullptr, out), ACL_ERROR_INVALID_PARAM);
  destroy(in);
  destroy(out);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_PARAM);
}

TEST(AclMdlNoDevice, LoadNeedsADevice) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile("whatever.om", &id), ACL_ERROR_RT_CONTEXT_NULL);
}

} // namespace
