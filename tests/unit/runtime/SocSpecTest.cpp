//===- SocSpecTest.cpp - Presets, INI errors and the cost model -----------===//
#include "runtime/soc/SocSpec.h"
#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

using namespace geflow::rt;

namespace {

const char *kValid = R"ini(
[SoCInfo]
soc_version=Mini
ai_core_cnt=2
cube_core_cnt=2
vector_core_cnt=4
l2_size=1048576

[Sim]
clock_mhz=1000
cube_flops_per_cycle=1000
vector_flops_per_cycle=100
hbm_bandwidth_gbps=100
host_link_bandwidth_gbps=10
launch_latency_us=1
event_latency_us=0.5
)ini";

std::string replace(std::string text, const std::string &from,
                    const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

Status parse(const std::string &text) {
  SocSpec s;
  return parseSocSpec(text, "mini.ini", s);
}

} // namespace

TEST(SocSpec, PresetsAreFoundByName) {
  std::vector<std::string> names = socPresetNames();
  ASSERT_GE(names.size(), 2u);
  SocSpec big, small;
  ASSERT_TRUE(loadSocSpec("ascend910b-sim", big).isOk());
  EXPECT_EQ(big.cubeCoreCnt, 24u);
  EXPECT_EQ(big.vectorCoreCnt, 48u);
  EXPECT_EQ(big.aiCoreCnt, 24u);
  ASSERT_TRUE(loadSocSpec("ascend310p-sim", small).isOk());
  EXPECT_LT(small.cubeCoreCnt, big.cubeCoreCnt);
  EXPECT_EQ(small.socVersion, "Ascend310P-sim");
}

TEST(SocSpec, UnknownPresetListsTheKnownOnes) {
  SocSpec s;
  Status st = loadSocSpec("ascend999", s);
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_NE(st.message().find("ascend910b-sim"), std::string::npos)
      << st.message();
}

TEST(SocSpec, ParsesValidTextAndKeepsExtraSocInfo) {
  SocSpec s;
  ASSERT_TRUE(parseSocSpec(kValid, "mini.ini", s).isOk());
  EXPECT_EQ(s.socVersion, "Mini");
  EXPECT_EQ(s.vectorCoreCnt, 4u);
  EXPECT_DOUBLE_EQ(s.eventLatencyUs, 0.5);
  EXPECT_EQ(s.extraSocInfo.at("l2_size"), "1048576");
}

TEST(SocSpec, MissingKeyIsNamed) {
  Status st = parse(replace(kValid, "cube_core_cnt=2\n", ""));
  EXPECT_EQ(st.code(), StatusCode::kInvalidSpec);
  EXPECT_EQ(st.message(),
            "soc spec 'mini.ini': [SoCInfo] cube_core_cnt is missing");
}

TEST(SocSpec, NonNumberIsNamedWithItsLine) {
  Status st = parse(replace(kValid, "clock_mhz=1000", "clock_mhz=fast"));
  EXPECT_EQ(st.code(), StatusCode::kInvalidSpec);
  EXPECT_NE(
      st.message().find("[Sim] clock_mhz = 'fast' (line 10) is not a number"),
      std::string::npos)
      << st.message();
}

TEST(SocSpec, InconsistentCoreCountsAreNamed) {
  Status st = parse(replace(kValid, "ai_core_cnt=2", "ai_core_cnt=3"));
  EXPECT_EQ(st.code(), StatusCode::kInvalidSpec);
  EXPECT_NE(st.message().find("ai_core_cnt = 3 but cube_core_cnt = 2"),
            std::string::npos)
      << st.message();
}

TEST(SocSpec, UnknownSimKeyIsATypo) {
  Status st =
      parse(replace(kValid, "clock_mhz=1000", "clock_mhz=1000\nclok=3"));
  EXPECT_EQ(st.code(), StatusCode::kInvalidSpec);
  EXPECT_NE(st.message().find("[Sim] clok"), std::string::npos) << st.message();
}

TEST(SocSpec, MalformedLineIsAnError) {
  Status st = parse(replace(kValid, "[Sim]", "[Sim]\njust words"));
  EXPECT_EQ(st.code(), StatusCode::kInvalidSpec);
  EXPECT_NE(st.message().find("expected 'key=value'"), std::string::npos);
  st = parse(replace(kValid, "cube_core_cnt=2", "cube_core_cnt=0"));
  EXPECT_NE(st.message().find("cube_core_cnt"), std::string::npos);
  st = parse(replace(kValid, "cube_core_cnt=2", "cube_core_cnt=2.5"));
  EXPECT_NE(st.message().find("cube_core_cnt = 2.5 is not an integer"),
            std::string::npos)
      << st.message();
}

TEST(CostModel, RooflineWavesAndLatency) {
  SocSpec s;
  ASSERT_TRUE(parseSocSpec(kValid, "mini.ini", s).isOk());
  CostModel cm(s);
  // 2e8 FLOP over 2 blocks at 1000 FLOP/ns per cube core = 100 us per block.
  KernelCost c{2e8, 0};
  EXPECT_EQ(cm.blockTimeNs(Engine::kAic, c, 2), 100000);
  EXPECT_EQ(cm.kernelTimeNs(Engine::kAic, c, 2, 2), 1000 + 100000);
  EXPECT_EQ(cm.kernelTimeNs(Engine::kAic, c, 2, 1), 1000 + 200000); // 2 waves
  // Memory bound: 1e6 bytes at 100 GB/s split over 2 cube cores.
  KernelCost m{0, 1e6};
  EXPECT_EQ(cm.kernelTimeNs(Engine::kAic, m, 2, 2), 1000 + 10000);
  // 10 GB/s host link: 1 MB takes 100 us.
  EXPECT_EQ(cm.memcpyTimeNs(MemcpyKind::kHostToDevice, 1000000), 1000 + 100000);
  EXPECT_EQ(cm.mixVectorRatio(), 2u);
  EXPECT_EQ(cm.engineCores(Engine::kMix), 2u);
  EXPECT_EQ(cm.bestBlockDim(Engine::kAic, c, 2), 2u);
  // A tiny kernel is not worth splitting below the launch latency.
  EXPECT_EQ(cm.bestBlockDim(Engine::kAic, KernelCost{1000, 0}, 2), 1u);
}
