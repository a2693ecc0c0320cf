//===- StreamPlanReaderTest.cpp - the stream-plan JSON reader -------------===//
//
// Every error kind with its exact line and key, the defaults, the merge of
// overlapping scopes.
//
//===----------------------------------------------------------------------===//

#include "frontends/streamplan/StreamPlan.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace geflow::streamplan;

namespace {

StreamPlan parseOk(llvm::StringRef text) {
  auto plan = parseStreamPlan(text, "plan.json");
  if (!plan) {
    ADD_FAILURE() << llvm::toString(plan.takeError());
    return {};
  }
  return std::move(*plan);
}

std::string parseError(llvm::StringRef text) {
  auto plan = parseStreamPlan(text, "plan.json");
  if (plan)
    return "<no error>";
  return llvm::toString(plan.takeError());
}

TEST(StreamPlanReader, ReadsTheDocumentedExample) {
  StreamPlan plan = parseOk(R"({
  "scopes": [ { "nodes": ["shared_expert/*", "gate*"], "stream_tag": "shared",
                "priority": 0, "enable_inner_parallel": false,
                "limit_core_num": [8, 16] } ],
  "wait_tensor": [ { "tensor": "A", "after": "B" } ]
})");
  ASSERT_EQ(plan.scopes.size(), 1u);
  const Scope &scope = plan.scopes[0];
  ASSERT_EQ(scope.nodes.size(), 2u);
  EXPECT_EQ(scope.nodes[1].text(), "gate*");
  EXPECT_EQ(scope.nodes[1].site().line, 2u);
  EXPECT_EQ(scope.nodes[1].site().path, "scopes[0].nodes[1]");
  EXPECT_EQ(scope.streamTag, "shared");
  EXPECT_EQ(scope.priority, 0);
  EXPECT_EQ(scope.innerParallel, false);
  ASSERT_TRUE(scope.coreLimit);
  EXPECT_EQ(scope.coreLimit->aicoreNum, 8);
  EXPECT_EQ(scope.coreLimit->vectorcoreNum, 16);
  ASSERT_EQ(plan.waits.size(), 1u);
  EXPECT_EQ(plan.waits[0].tensor, "A");
  EXPECT_EQ(plan.waits[0].after, "B");
  EXPECT_EQ(plan.waits[0].afterSite.line, 5u);
  EXPECT_EQ(plan.waits[0].afterSite.path, "wait_tensor[0].after");
}

TEST(StreamPlanReader, EmptyPlanIsValid) {
  StreamPlan plan = parseOk("{}");
  EXPECT_TRUE(plan.scopes.empty());
  EXPECT_TRUE(plan.waits.empty());
}

TEST(StreamPlanReader, TagBringsPriorityZeroAndInnerParallel) {
  StreamPlan plan =
      parseOk(R"({"scopes": [{"nodes": ["a"], "stream_tag": "s"}]})");
  EXPECT_EQ(plan.scopes[0].priority, 0);
  EXPECT_EQ(plan.scopes[0].innerParallel, true);
  EXPECT_FALSE(plan.scopes[0].coreLimit);
}

TEST(StreamPlanReader, CoreLimitAloneSetsNothingElse) {
  StreamPlan plan =
      parseOk(R"({"scopes": [{"nodes": ["a"], "limit_core_num": [4, 0]}]})");
  NodeSettings settings = plan.settingsFor("a");
  EXPECT_FALSE(settings.streamTag);
  EXPECT_FALSE(settings.priority);
  EXPECT_FALSE(settings.innerParallel);
  ASSERT_TRUE(settings.coreLimit);
  EXPECT_EQ(settings.coreLimit->aicoreNum, 4);
  EXPECT_EQ(settings.coreLimit->vectorcoreNum, 0);
}

TEST(StreamPlanReader, LaterScopeOverridesTheKeysItSets) {
  StreamPlan plan = parseOk(R"({"scopes": [
    {"nodes": ["expert/*"], "stream_tag": "e", "limit_core_num": [8, 16]},
    {"nodes": ["expert/up*"], "stream_tag": "up", "priority": 2},
    {"nodes": ["expert/up2"], "limit_core_num": [2, 4]}
  ]})");
  NodeSettings down = plan.settingsFor("expert/down");
  EXPECT_EQ(down.streamTag, "e");
  EXPECT_EQ(down.coreLimit->aicoreNum, 8);
  NodeSettings up = plan.settingsFor("expert/up1");
  EXPECT_EQ(up.streamTag, "up");
  EXPECT_EQ(up.priority, 2);
  EXPECT_EQ(up.coreLimit->aicoreNum, 8);
  NodeSettings up2 = plan.settingsFor("expert/up2");
  EXPECT_EQ(up2.streamTag, "up");
  EXPECT_EQ(up2.coreLimit->aicoreNum, 2);
  EXPECT_EQ(up2.coreLimit->vectorcoreNum, 4);
  EXPECT_TRUE(plan.settingsFor("gate").empty());
}

TEST(StreamPlanReader, GlobsSelectByName) {
  StreamPlan plan = parseOk(
      R"({"scopes": [{"nodes": ["mm_{a,b}", "x?"], "stream_tag": "1"}]})");
  EXPECT_EQ(plan.settingsFor("mm_a").streamTag, "1");
  EXPECT_EQ(plan.settingsFor("mm_b").streamTag, "1");
  EXPECT_EQ(plan.settingsFor("x1").streamTag, "1");
  EXPECT_FALSE(plan.settingsFor("mm_c").streamTag);
  EXPECT_FALSE(plan.settingsFor("x12").streamTag);
}

TEST(StreamPlanReader, GlobMatchingNoNodeNamesItsLine) {
  StreamPlan plan = parseOk("{\"scopes\": [{\"stream_tag\": \"s\",\n"
                            "  \"nodes\": [\"add\",\n"
                            "            \"mat*\"]}]}");
  EXPECT_FALSE(
      llvm::errorToBool(plan.checkEveryGlobMatches({"add", "matmul"})));
  llvm::Error err = plan.checkEveryGlobMatches({"add", "gemm"});
  EXPECT_EQ(
      llvm::toString(std::move(err)),
      "plan.json:3: scopes[0].nodes[1]: 'mat*' matches no node of the model");
}

struct ErrorCase {
  const char *text;
  const char *message;
};

class StreamPlanReaderError : public testing::TestWithParam<ErrorCase> {};

TEST_P(StreamPlanReaderError, NamesLineAndKey) {
  EXPECT_EQ(parseError(GetParam().text), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, StreamPlanReaderError,
    testing::Values(
        // The brief's example: the value's own line.
        ErrorCase{
            "{\n\"scopes\": [\n {\"nodes\": [\"a\"], \"stream_tag\": \"s\"},\n"
            " {\"nodes\": [\"b\"],\n  \"stream_tag\": \"t\",\n"
            "  \"enable_inner_parallel\": true,\n  \"priority\": -2}\n]}",
            "plan.json:7: scopes[1].priority: must be an integer >= 0, got -2"},
        ErrorCase{"{\"scopes\": [{\"nodes\": [\"a\"], \"priority\": 1.5}]}",
                  "plan.json:1: scopes[0].priority: must be an integer >= 0, "
                  "got 1.5"},
        ErrorCase{"{\"scopes\": [{\"nodes\": [\"a\"],\n \"priority\": \"1\"}]}",
                  "plan.json:2: scopes[0].priority: must be an integer >= 0, "
                  "got \"1\""},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"], \"priority\": "
            "18446744073709551615}]}",
            "plan.json:1: scopes[0].priority: must be an integer >= 0, got "
            "18446744073709551615"},
        // JSON syntax, with the line of the offending token.
        ErrorCase{"{\n  \"scopes\": [\n    {\"nodes\": [\"a\"] \"stream_tag\": "
                  "\"s\"}\n]}",
                  "plan.json:3: syntax error while parsing object - unexpected "
                  "string "
                  "literal; expected '}'"},
        ErrorCase{
            "{\"scopes\": [\n",
            "plan.json:1: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal"},
        ErrorCase{
            "",
            "plan.json:1: syntax error while parsing value - unexpected end "
            "of input; expected '[', '{', or a literal"},
        ErrorCase{"{\"scopes\": [],\n \"scopes\": []}",
                  "plan.json:2: scopes: duplicate key"},
        // Unknown keys, at every level.
        ErrorCase{"{\"scopes\": [],\n \"wait_tensors\": []}",
                  "plan.json:2: wait_tensors: unknown key (expected scopes, "
                  "wait_tensor)"},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"],\n \"stream_tag\": \"s\",\n"
            " \"prio\": 1}]}",
            "plan.json:3: scopes[0].prio: unknown key (expected nodes, "
            "stream_tag, priority, enable_inner_parallel, limit_core_num)"},
        ErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"a\", \"after\": \"b\",\n"
            " \"before\": \"c\"}]}",
            "plan.json:2: wait_tensor[0].before: unknown key (expected tensor, "
            "after)"},
        // Wrong types.
        ErrorCase{"[1, 2]", "plan.json:1: must be an object, got [1,2]"},
        ErrorCase{
            "{\"scopes\": {\"nodes\": [\"a\"]}}",
            "plan.json:1: scopes: must be an array, got {\"nodes\":[\"a\"]}"},
        ErrorCase{"{\"scopes\": [\"a*\"]}",
                  "plan.json:1: scopes[0]: must be an object, got \"a*\""},
        ErrorCase{"{\"scopes\": [{\"nodes\": \"a*\", \"stream_tag\": \"s\"}]}",
                  "plan.json:1: scopes[0].nodes: must be an array, got \"a*\""},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\",\n 3], \"stream_tag\": \"s\"}]}",
            "plan.json:2: scopes[0].nodes[1]: must be a non-empty string, got "
            "3"},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"], \"stream_tag\": \"s\",\n"
            "  \"enable_inner_parallel\": 1}]}",
            "plan.json:2: scopes[0].enable_inner_parallel: must be true or "
            "false, got 1"},
        ErrorCase{"{\"wait_tensor\": {\"tensor\": \"a\", \"after\": \"b\"}}",
                  "plan.json:1: wait_tensor: must be an array, got "
                  "{\"after\":\"b\",\"tensor\":\"a\"}"},
        ErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"a\",\n \"after\": 7}]}",
            "plan.json:2: wait_tensor[0].after: must be a non-empty string, "
            "got 7"},
        // Empty names and tags.
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"],\n \"stream_tag\": \"\"}]}",
            "plan.json:2: scopes[0].stream_tag: must be a non-empty string, "
            "got \"\""},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [], \"stream_tag\": \"s\"}]}",
            "plan.json:1: scopes[0].nodes: must name at least one node glob"},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"\"], \"stream_tag\": \"s\"}]}",
            "plan.json:1: scopes[0].nodes[0]: must be a non-empty string, "
            "got \"\""},
        ErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"\", \"after\": \"b\"}]}",
            "plan.json:1: wait_tensor[0].tensor: must be a non-empty string, "
            "got \"\""},
        // Missing keys name the entry's line.
        ErrorCase{"{\"scopes\": [\n  {\"stream_tag\": \"s\"}]}",
                  "plan.json:2: scopes[0]: missing key 'nodes'"},
        ErrorCase{"{\"wait_tensor\": [\n\n  {\"tensor\": \"a\"}]}",
                  "plan.json:3: wait_tensor[0]: missing key 'after'"},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"]}]}",
            "plan.json:1: scopes[0]: sets nothing: give stream_tag, priority, "
            "enable_inner_parallel or limit_core_num"},
        // Core limits.
        ErrorCase{"{\"scopes\": [{\"nodes\": [\"a\"],\n \"limit_core_num\": "
                  "[0, 16]}]}",
                  "plan.json:2: scopes[0].limit_core_num[0]: must be an "
                  "integer >= 1, "
                  "got 0"},
        ErrorCase{"{\"scopes\": [{\"nodes\": [\"a\"], \"limit_core_num\": [8,\n"
                  " -1]}]}",
                  "plan.json:2: scopes[0].limit_core_num[1]: must be an "
                  "integer >= 0, "
                  "got -1"},
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"], \"limit_core_num\": [8]}]}",
            "plan.json:1: scopes[0].limit_core_num: must be [aic, aiv], got "
            "[8]"},
        // Globs.
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a[\"], \"stream_tag\": \"s\"}]}",
            "plan.json:1: scopes[0].nodes[0]: invalid glob 'a[': invalid glob "
            "pattern, unmatched '['"},
        // One stream, one priority; a tensor never waits for itself.
        ErrorCase{
            "{\"scopes\": [{\"nodes\": [\"a\"], \"stream_tag\": \"s\"},\n"
            " {\"nodes\": [\"b\"], \"stream_tag\": \"s\",\n \"priority\": 1}]}",
            "plan.json:3: scopes[1].priority: stream 's' has priority 0 in "
            "scopes[0]; one stream has one priority"},
        ErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"a\",\n \"after\": \"a\"}]}",
            "plan.json:2: wait_tensor[0].after: 'a' cannot wait for itself"}));

TEST(StreamPlanReader, MissingFileIsOneLine) {
  auto plan = readStreamPlanFile("/nonexistent/plan.json");
  ASSERT_FALSE(plan);
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "cannot read stream plan '/nonexistent/plan.json': No such file or "
            "directory");
}

TEST(StreamPlanReader, ReadsAFileAndNamesIt) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("plan", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "{\"scopes\": [{\"nodes\": [\"a\"],\n \"priority\": -1}]}";
  }
  auto plan = readStreamPlanFile(path);
  ASSERT_FALSE(plan);
  EXPECT_EQ(
      llvm::toString(plan.takeError()),
      (path + ":2: scopes[0].priority: must be an integer >= 0, got -1").str());
  llvm::sys::fs::remove(path);
}

} // namespace
