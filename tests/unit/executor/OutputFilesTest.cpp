//===- OutputFilesTest.cpp - every output of a command, all or none -------===//

#include "executor/model/OutputFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using geflow::om::OutputFiles;

namespace {

class OutputFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("geflow-outputfiles-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string path(const std::string &name) const {
    return (root_ / name).string();
  }
  /// Every entry under the test folder, relative, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto &e : fs::recursive_directory_iterator(root_))
      names.push_back(fs::relative(e.path(), root_).string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string read(const std::string &file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path root_;
};

TEST_F(OutputFilesTest, CommitRenamesEveryFileIntoPlace) {
  OutputFiles files;
  ASSERT_TRUE(files.createFolder(path("out/deep")).isOk());
  ASSERT_TRUE(files.stage(path("out/deep/a.txt"), {"he", "llo"}).isOk());
  ASSERT_TRUE(files.stage(path("b.txt"), {"world"}).isOk());
  // Staged, not yet there: only temporaries exist.
  EXPECT_FALSE(fs::exists(path("b.txt")));
  ASSERT_TRUE(files.commit().isOk());
  EXPECT_EQ(read(path("out/deep/a.txt")), "hello");
  EXPECT_EQ(read(path("b.txt")), "world");
  EXPECT_EQ(entries(), (std::vector<std::string>{"b.txt", "out", "out/deep",
                                                 "out/deep/a.txt"}));
}

TEST_F(OutputFilesTest, AnErrorLeavesNothingBehind) {
  {
    OutputFiles files;
    ASSERT_TRUE(files.createFolder(path("out/deep")).isOk());
    ASSERT_TRUE(files.stage(path("out/deep/a.txt"), {"partial"}).isOk());
    // Destroyed without commit, as on an error path.
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(OutputFilesTest, AFolderWhereAFileGoesIsOneLine) {
  fs::create_directories(path("dir"));
  OutputFiles files;
  geflow::rt::Status s = files.stage(path("dir"), {"x"});
  EXPECT_EQ(s.message(), "cannot write '" + path("dir") + "': it is a folder");
  EXPECT_EQ(entries(), std::vector<std::string>{"dir"});
}

TEST_F(OutputFilesTest, AFileWhereAFolderGoesIsOneLine) {
  std::ofstream(path("file")) << "keep me";
  OutputFiles files;
  geflow::rt::Status s = files.createFolder(path("file/sub"));
  EXPECT_EQ(s.message(), "cannot create the folder '" + path("file/sub") +
                             "': '" + path("file") + "' is a file");
  EXPECT_EQ(read(path("file")), "keep me");
}

TEST_F(OutputFilesTest, AMissingFolderIsOneLine) {
  OutputFiles files;
  geflow::rt::Status s = files.stage(path("nodir/m.om"), {"x"});
  EXPECT_EQ(s.message(), "cannot write '" + path("nodir/m.om") +
                             "': No such file or directory");
  EXPECT_TRUE(entries().empty());
}

TEST_F(OutputFilesTest, CommitReplacesAnOlderFile) {
  std::ofstream(path("m.om")) << "old";
  ASSERT_TRUE(
      geflow::om::writeFileAtomically(path("m.om"), std::string("new")).isOk());
  EXPECT_EQ(read(path("m.om")), "new");
  EXPECT_EQ(entries(), std::vector<std::string>{"m.om"});
}

} // namespace
