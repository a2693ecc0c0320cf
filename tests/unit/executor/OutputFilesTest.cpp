//===- OutputFilesTest.cpp - every output of a command, all or none -------===//

#include "executor/model/OutputFiles.h"

#include "tests/unit/ScratchFolder.h"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using geflow::om::OutputFiles;

namespace {

class OutputFilesTest : public geflow::test::InScratchFolder<> {};

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
