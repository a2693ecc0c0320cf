//===- TraceExportTest.cpp - exporting a trace file, safely ---------------===//
//
// geflowrtExportTrace / Device::exportTrace write through a temporary with a
// name of its own: concurrent exports to one path both land whole, a user's
// `<path>.tmp` survives, and a failed export leaves nothing behind.
//
//===----------------------------------------------------------------------===//
#include "RuntimeTestUtil.h"

#include "acl/acl_rt.h"
#include "tests/unit/ScratchFolder.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using namespace geflow::rt;
using namespace geflow::rt::test;

namespace {

class TraceExport : public geflow::test::InScratchFolder<> {
protected:
  /// True when `file` is a whole trace holding a slice named `kernelName`.
  static bool holdsKernel(const std::string &file,
                          const std::string &kernelName) {
    auto doc = nlohmann::json::parse(read(file), nullptr,
                                     /*allow_exceptions=*/false);
    if (doc.is_discarded())
      return false;
    for (const auto &ev : doc["traceEvents"])
      if (ev["ph"] == "X" && ev["name"] == kernelName)
        return true;
    return false;
  }
};

std::unique_ptr<Device> deviceThatRan(const std::string &kernelName) {
  auto dev = makeDevice();
  EXPECT_TRUE(dev->launchKernel(nullptr, kernel(kernelName, Engine::kAic, 1, 5))
                  .isOk());
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
  return dev;
}

TEST_F(TraceExport, AUsersTmpFileBesideThePathSurvives) {
  std::ofstream(path("t.json.tmp")) << "mine";
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(geflowrtEnableTrace(1), ACL_SUCCESS);
  geflowrtKernelDesc k{};
  k.name = "capi-kernel";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 1;
  k.flops = 1000;
  ASSERT_EQ(geflowrtLaunchKernel(&k, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(geflowrtExportTrace(path("t.json").c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);

  EXPECT_TRUE(holdsKernel(path("t.json"), "capi-kernel"));
  EXPECT_EQ(read(path("t.json.tmp")), "mine");
  EXPECT_EQ(entries(), (std::vector<std::string>{"t.json", "t.json.tmp"}));
}

TEST_F(TraceExport, ConcurrentExportsToOnePathEachLandWhole) {
  auto dev = deviceThatRan("shared");
  constexpr int kThreads = 4, kExportsEach = 25;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kExportsEach; ++i)
        if (!dev->exportTrace(path("t.json")).isOk())
          ++failures;
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(holdsKernel(path("t.json"), "shared"));
  EXPECT_EQ(entries(), std::vector<std::string>{"t.json"}); // no temporaries
}

TEST_F(TraceExport, AnExportOntoAFolderFailsAndLeavesNothing) {
  fs::create_directories(path("dir"));
  auto dev = deviceThatRan("k");
  Status s = dev->exportTrace(path("dir"));
  EXPECT_FALSE(s.isOk());
  EXPECT_EQ(s.message(),
            "trace: cannot write '" + path("dir") + "': Is a directory");
  EXPECT_EQ(entries(), std::vector<std::string>{"dir"});
  EXPECT_TRUE(fs::is_empty(path("dir")));
}

TEST_F(TraceExport, AnExportIntoAMissingFolderFailsInOneLine) {
  auto dev = deviceThatRan("k");
  Status s = dev->exportTrace(path("nodir/t.json"));
  EXPECT_EQ(s.code(), StatusCode::kNotFound); // ACL_ERROR_INVALID_FILE
  EXPECT_EQ(s.message(), "trace: cannot write '" + path("nodir/t.json") +
                             "': No such file or directory");
  EXPECT_TRUE(entries().empty());
}

TEST_F(TraceExport, AnExportReplacesAnOlderTrace) {
  std::ofstream(path("t.json")) << "old";
  auto dev = deviceThatRan("fresh");
  ASSERT_TRUE(dev->exportTrace(path("t.json")).isOk());
  EXPECT_TRUE(holdsKernel(path("t.json"), "fresh"));
  EXPECT_EQ(entries(), std::vector<std::string>{"t.json"});
}

} // namespace
