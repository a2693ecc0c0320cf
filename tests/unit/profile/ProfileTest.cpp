//===- ProfileTest.cpp - Busy time, overlap and gaps by hand --------------===//
#include "tools/geflow/profile/Profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace geflow;
using namespace geflow::profile;
using rt::TaskKind;
using rt::TaskRecord;

namespace {

constexpr rt::VirtualNs kUs = 1000;

TaskRecord kernel(const std::string &name, rt::StreamId stream, uint64_t seq,
                  rt::Engine engine, uint32_t cores, double startUs,
                  double endUs, double readyUs = -1) {
  TaskRecord r;
  r.name = name;
  r.opType = "MatMul";
  r.kind = TaskKind::kKernel;
  r.engine = engine;
  r.stream = stream;
  r.seq = seq;
  r.blockDim = 2 * cores;
  r.coresGranted = cores;
  r.coreTimeNs = static_cast<rt::VirtualNs>(cores * (endUs - startUs) * kUs);
  r.startNs = static_cast<rt::VirtualNs>(startUs * kUs);
  r.readyNs =
      readyUs < 0 ? r.startNs : static_cast<rt::VirtualNs>(readyUs * kUs);
  r.submitNs = 0;
  r.endNs = static_cast<rt::VirtualNs>(endUs * kUs);
  return r;
}

TaskRecord event(TaskKind kind, rt::StreamId stream, uint64_t seq, uint32_t id,
                 double startUs, double endUs) {
  TaskRecord r;
  r.kind = kind;
  r.stream = stream;
  r.seq = seq;
  r.eventId = id;
  r.eventSeq = 1;
  r.readyNs = 0;
  r.startNs = static_cast<rt::VirtualNs>(startUs * kUs);
  r.endNs = static_cast<rt::VirtualNs>(endUs * kUs);
  return r;
}

// Stream 0: A [0,10) on 4 cube cores, records event 1, B [10,30) on 8 vector
// cores. Stream 1: waits for event 1 until 10.5, C [12,20) on 2 cube cores,
// then D [25,40) on 4 cube cores after queueing 5 us for them.
//   busy: stream 0 = 30 us, stream 1 = 8 + 15 = 23 us
//   both: C in B = 8 us, D with B = [25,30) = 5 us -> 13 us
//   overlap_pct = 13 / 23 = 0.565 -> overlapping; makespan 40 us
//   cube: (4*10 + 2*8 + 4*15) / (8 cores * 40) = 116 / 320
//   vector: 8*20 / (16 cores * 40) = 160 / 640
Timeline twoStreams() {
  Timeline t;
  t.model = "hand";
  t.soc = "test-soc";
  t.hostIsa = "avx2+fma";
  t.streamCount = 2;
  t.groupCores = {8, 16, 0, 0};
  t.records = {kernel("A", 0, 0, rt::Engine::kAic, 4, 0, 10),
               event(TaskKind::kEventRecord, 0, 1, 1, 10, 10),
               kernel("B", 0, 2, rt::Engine::kAiv, 8, 10, 30),
               event(TaskKind::kEventWait, 1, 0, 1, 10, 10.5),
               kernel("C", 1, 1, rt::Engine::kAic, 2, 12, 20),
               kernel("D", 1, 2, rt::Engine::kAic, 4, 25, 40, /*readyUs=*/20)};
  return t;
}

TEST(Profile, BusyTimesOverlapAndVerdictOfTwoStreams) {
  nlohmann::json s = summarize(twoStreams());
  EXPECT_DOUBLE_EQ(s["makespan_us"], 40.0);
  ASSERT_EQ(s["streams"].size(), 2u);
  EXPECT_DOUBLE_EQ(s["streams"][0]["busy_us"], 30.0);
  EXPECT_DOUBLE_EQ(s["streams"][1]["busy_us"], 23.0);
  EXPECT_DOUBLE_EQ(s["streams"][0]["busy_fraction"], 0.75);
  EXPECT_EQ(s["streams"][1]["kernels"], 2);

  ASSERT_EQ(s["stream_pairs"].size(), 1u);
  const nlohmann::json &pair = s["stream_pairs"][0];
  EXPECT_EQ(pair["streams"], nlohmann::json({0, 1}));
  EXPECT_DOUBLE_EQ(pair["both_busy_us"], 13.0);
  EXPECT_NEAR(pair["overlap_pct"].get<double>(), 13.0 / 23.0, 1e-12);
  EXPECT_EQ(pair["verdict"], "overlapping");

  ASSERT_EQ(s["core_groups"].size(), 2u); // aicpu and dvpp are absent
  EXPECT_EQ(s["core_groups"][0]["group"], "cube");
  EXPECT_DOUBLE_EQ(s["core_groups"][0]["utilisation"], 116.0 / 320.0);
  EXPECT_DOUBLE_EQ(s["core_groups"][0]["busy_us"], 33.0); // A + C + D
  EXPECT_EQ(s["core_groups"][1]["group"], "vector");
  EXPECT_DOUBLE_EQ(s["core_groups"][1]["utilisation"], 0.25);
}

TEST(Profile, IdleGapsSayWhatTheStreamWaitedFor) {
  nlohmann::json gaps = summarize(twoStreams())["idle_gaps"];
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0]["stream_id"], 1);
  EXPECT_DOUBLE_EQ(gaps[0]["start_us"], 0.0);
  EXPECT_DOUBLE_EQ(gaps[0]["end_us"], 12.0);
  EXPECT_EQ(gaps[0]["before_op"], "C");
  EXPECT_EQ(gaps[0]["waiting_for"], "event 1 from stream 0 after 'A'");
  EXPECT_DOUBLE_EQ(gaps[1]["duration_us"], 5.0);
  EXPECT_EQ(gaps[1]["waiting_for"], "free AIC cores");

  SummaryOptions coarse;
  coarse.gapThresholdNs = 6 * kUs; // only the 12 us gap is longer
  EXPECT_EQ(summarize(twoStreams(), coarse)["idle_gaps"].size(), 1u);
}

TEST(Profile, StreamsOneAfterTheOtherAreFalseParallelism) {
  Timeline t = twoStreams();
  t.records = {kernel("A", 0, 0, rt::Engine::kAic, 4, 0, 10),
               kernel("C", 1, 0, rt::Engine::kAic, 4, 10, 20)};
  nlohmann::json pair = summarize(t)["stream_pairs"][0];
  EXPECT_DOUBLE_EQ(pair["overlap_pct"], 0.0);
  EXPECT_EQ(pair["verdict"], "false parallelism");
}

TEST(Profile, VerdictThresholds) {
  EXPECT_STREQ(overlapVerdict(0.5), "overlapping");
  EXPECT_STREQ(overlapVerdict(0.4999), "partial");
  EXPECT_STREQ(overlapVerdict(0.0501), "partial");
  EXPECT_STREQ(overlapVerdict(0.05), "false parallelism");
}

TEST(Profile, RecordsAreRenumberedToModelStreams) {
  std::vector<TaskRecord> raw = {kernel("x", 7, 0, rt::Engine::kAic, 1, 1, 2),
                                 kernel("a", 5, 0, rt::Engine::kAic, 1, 3, 4),
                                 kernel("b", 3, 0, rt::Engine::kAic, 1, 5, 6)};
  std::vector<TaskRecord> kept = toModelStreams(raw, {5, 3});
  ASSERT_EQ(kept.size(), 2u); // stream 7 is the caller's, not the model's
  EXPECT_EQ(kept[0].name, "a");
  EXPECT_EQ(kept[0].stream, 0u);
  EXPECT_EQ(kept[0].startNs, 0u);
  EXPECT_EQ(kept[1].stream, 1u);
  EXPECT_EQ(kept[1].startNs, 2 * kUs);
}

TEST(Profile, OpSummaryHasMsprofColumns) {
  std::string csv = opSummaryCsv(twoStreams());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Op Name,OP Type,Task Type,Stream ID,Task Start Time(us),"
            "Task Duration(us),Task Wait Time(us),Block Dim,Host Time(us),"
            "Host Wall Time(us)");
  EXPECT_NE(
      csv.find(
          "\nB,MatMul,AI_VECTOR_CORE,0,10.000,20.000,0.000,16,0.000,0.000\n"),
      std::string::npos);
  EXPECT_NE(
      csv.find("\nD,MatMul,AI_CORE,1,25.000,15.000,5.000,8,0.000,0.000\n"),
      std::string::npos);
  EXPECT_NE(csv.find("\nevent_wait_1,EVENT_WAIT,EVENT,1,10.000,0.500,"),
            std::string::npos);
}

TEST(Profile, HostTimeIsSummedByOpTypeLargestFirst) {
  Timeline t = twoStreams();
  EXPECT_FALSE(summarize(t).contains("host_kernel_us")); // nothing timed
  t.records[0].opType = "Conv";
  t.records[0].hostNs = 500 * kUs;      // A
  t.records[2].hostNs = 1000 * kUs;     // B, MatMul
  t.records[5].hostNs = 2000 * kUs;     // D, MatMul
  t.records[5].hostWallNs = 1100 * kUs; // on two threads
  nlohmann::json s = summarize(t);
  EXPECT_DOUBLE_EQ(s["host_kernel_us"].get<double>(), 3500.0);
  const nlohmann::json &types = s["host_by_op_type"];
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[0]["op_type"], "MatMul");
  EXPECT_DOUBLE_EQ(types[0]["host_us"].get<double>(), 3000.0);
  EXPECT_EQ(types[0]["kernels"], 2);
  EXPECT_EQ(types[1]["op_type"], "Conv");
  EXPECT_NEAR(types[1]["share"].get<double>(), 500.0 / 3500.0, 1e-12);
  std::string report = formatReport(s);
  EXPECT_NE(report.find("host kernel time   3500.000 us"), std::string::npos);
  EXPECT_LT(report.find("MatMul"), report.find("Conv"));
  EXPECT_NE(opSummaryCsv(t).find("\nD,MatMul,AI_CORE,1,25.000,15.000,5.000,8,"
                                 "2000.000,1100.000\n"),
            std::string::npos);
}

TEST(Profile, TraceDrawsEventsAsFlows) {
  nlohmann::json trace = nlohmann::json::parse(traceJson(twoStreams()));
  int starts = 0, finishes = 0;
  for (const nlohmann::json &e : trace["traceEvents"]) {
    if (e["ph"] == "s") {
      ++starts;
      EXPECT_EQ(e["tid"], 0);
    }
    if (e["ph"] == "f") {
      ++finishes;
      EXPECT_EQ(e["tid"], 1);
    }
  }
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(finishes, 1);
}

TEST(Profile, FolderRoundTripsAndBadFoldersAreOneLineErrors) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("geflow-profile-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  Timeline t = twoStreams();
  nlohmann::json summary = summarize(t);
  ASSERT_TRUE(writeProfile(dir.string(), t, summary).isOk());
  for (const char *file :
       {"trace.json", "op_summary.csv", "summary.json", "timeline.html"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  EXPECT_FALSE(std::filesystem::exists(dir / "summary.json.tmp"));

  nlohmann::json back;
  ASSERT_TRUE(readSummary(dir.string(), &back).isOk());
  std::string report = formatReport(back);
  EXPECT_EQ(report, formatReport(summary));
  EXPECT_NE(report.find("0.57  overlapping"), std::string::npos) << report;
  EXPECT_EQ(back["host_isa"], "avx2+fma");
  EXPECT_NE(report.find("host isa           avx2+fma\n"), std::string::npos)
      << report;

  std::ofstream(dir / "summary.json") << "{ not json";
  rt::Status garbled = readSummary(dir.string(), &back);
  EXPECT_FALSE(garbled.isOk());
  EXPECT_NE(garbled.message().find("is not valid JSON"), std::string::npos);
  std::ofstream(dir / "summary.json") << "[1, 2]";
  EXPECT_NE(readSummary(dir.string(), &back)
                .message()
                .find("is not a geflow profile summary"),
            std::string::npos);
  std::filesystem::remove(dir / "summary.json");
  EXPECT_NE(readSummary(dir.string(), &back).message().find("is missing"),
            std::string::npos);
  std::filesystem::remove_all(dir);
  EXPECT_NE(readSummary(dir.string(), &back).message().find("is not a folder"),
            std::string::npos);

  std::string html = timelineHtml(t, summary);
  EXPECT_EQ(html.find("http"), std::string::npos); // nothing from the network
  EXPECT_NE(html.find("\"streams\":2"), std::string::npos);
}

TEST(Profile, TimelineEscapesScriptEndInNames) {
  Timeline t = twoStreams();
  t.records[0].name = "</script><b>";
  std::string html = timelineHtml(t, summarize(t));
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  EXPECT_NE(html.find("<\\/script><b>"), std::string::npos);
}

} // namespace
