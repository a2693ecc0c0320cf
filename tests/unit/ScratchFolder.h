//===- ScratchFolder.h - a fresh folder for each file-writing test -*- C++
//-*-===//
//
// Tests of what lands on disk (OutputFiles, trace export, removal on a
// signal) each get an empty folder of their own, named after the test and
// the process and removed afterwards; entries() lists what is left in it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_SCRATCHFOLDER_H
#define GEFLOW_TESTS_UNIT_SCRATCHFOLDER_H

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace geflow::test {

/// A test fixture (on `Base`, e.g. ::testing::TestWithParam<int>) with its
/// own empty folder.
template <typename Base = ::testing::Test> class InScratchFolder : public Base {
protected:
  InScratchFolder() {
    const ::testing::TestInfo *test =
        ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("geflow-") + test->test_suite_name() + "-" +
                       test->name() + "-" + std::to_string(::getpid());
    std::replace(name.begin(), name.end(), '/', '-'); // parameterized tests
    root_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~InScratchFolder() override { std::filesystem::remove_all(root_); }

  std::string path(const std::string &name) const {
    return (root_ / name).string();
  }

  /// Every entry below the folder, relative, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto &e : std::filesystem::recursive_directory_iterator(root_))
      names.push_back(std::filesystem::relative(e.path(), root_).string());
    std::sort(names.begin(), names.end());
    return names;
  }

  static std::string read(const std::string &file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::filesystem::path root_;
};

} // namespace geflow::test

#endif // GEFLOW_TESTS_UNIT_SCRATCHFOLDER_H
