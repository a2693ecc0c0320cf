//===- OmFormatTest.cpp - OM writer, reader and loader checks -------------===//

#include "executor/model/OmFormat.h"
#include "tests/unit/executor/TestModels.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

using namespace geflow;
using geflow::testing::addReluModel;

namespace {

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "geflow_om_" + std::to_string(::getpid()) +
         "_" + name;
}

std::string serialize(const om::OmModel &m) {
  std::string bytes;
  rt::Status st = om::serializeOm(m, &bytes);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return bytes;
}

/// The message loadOmBytes gives for `bytes`, or "" when it loads.
std::string loadError(const std::string &bytes) {
  std::unique_ptr<om::LoadedOm> om;
  rt::Status st = om::loadOmBytes(bytes, "model.om", &om);
  return st.isOk() ? "" : st.message();
}

uint64_t u64At(const std::string &b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | uint8_t(b[at + i]);
  return v;
}

om::PartitionEntry entryOf(const std::string &b, om::PartitionType type) {
  for (uint32_t i = 0; i < om::kOmPartitionCount; ++i) {
    size_t at = om::kOmHeaderSize + i * om::kOmPartitionEntrySize;
    if (uint8_t(b[at]) == uint32_t(type)) {
      om::PartitionEntry e;
      e.type = type;
      e.offset = u64At(b, at + 8);
      e.size = u64At(b, at + 16);
      return e;
    }
  }
  ADD_FAILURE() << "no partition " << om::partitionTypeName(type);
  return {};
}

void refreshHeaderChecksum(std::string &b) {
  uint64_t h = om::omChecksum(b.data(), om::kHdrChecksum);
  for (int i = 0; i < 8; ++i)
    b[om::kHdrChecksum + i] = char((h >> (8 * i)) & 0xff);
}

TEST(OmFormat, RoundTripThroughAFile) {
  om::OmModel m = addReluModel();
  std::string path = tempPath("roundtrip.om");
  rt::Status st = om::writeOmFile(m, path);
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::unique_ptr<om::LoadedOm> om;
  st = om::loadOmFile(path, &om);
  ASSERT_TRUE(st.isOk()) << st.toString();
  using google::protobuf::util::MessageDifferencer;
  EXPECT_TRUE(MessageDifferencer::Equals(om->modelDef(), m.modelDef));
  EXPECT_TRUE(MessageDifferencer::Equals(om->taskDef(), m.taskDef));
  EXPECT_TRUE(MessageDifferencer::Equals(om->memoryPlan(), m.memoryPlan));
  EXPECT_EQ(om->socName(), "ascend910b-sim");
  EXPECT_EQ(om->graph().op_size(), 5);
  ASSERT_EQ(om->weightsSize(), m.weights.size());
  EXPECT_EQ(0, std::memcmp(om->weights(), m.weights.data(), m.weights.size()));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(om->weights()) % om::kWeightAlignment,
            0u);
  // The header says what it is, in the fixed places.
  std::string bytes = serialize(m);
  EXPECT_EQ(bytes.substr(0, 8), "GEFLOWOM");
  EXPECT_EQ(bytes.substr(om::kHdrProducerVersion, 12), "geflow 0.1.0");
  EXPECT_EQ(entryOf(bytes, om::PartitionType::kWeights).offset %
                om::kWeightAlignment,
            0u);
  std::remove(path.c_str());
}

/// How many pages wholly inside [p, p + bytes) this process has mapped
/// (/proc/self/pagemap's present bit: mincore would tell the page cache's).
size_t mappedPages(const void *p, size_t bytes) {
  const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (at + page - 1) / page, last = (at + bytes) / page;
  const int fd = ::open("/proc/self/pagemap", O_RDONLY);
  EXPECT_GE(fd, 0);
  size_t present = 0;
  for (uintptr_t i = first; i < last; ++i) {
    uint64_t entry = 0;
    EXPECT_EQ(::pread(fd, &entry, sizeof entry, off_t(i * sizeof entry)),
              ssize_t(sizeof entry));
    present += (entry >> 63) & 1;
  }
  ::close(fd);
  return present;
}

TEST(OmFormat, DroppedWeightPagesLeaveMemoryAndReadBackTheSame) {
  // Weights packed at load are dropped from the mapping (GearProgram); a
  // later reader must still see the file's bytes, and weights loaded from
  // bytes (no file behind them) must keep theirs.
  om::OmModel m = addReluModel();
  m.weights.resize(256 << 10);
  for (size_t i = 32; i < m.weights.size(); ++i)
    m.weights[i] = uint8_t(i * 7 + 3);
  std::string path = tempPath("drop.om");
  ASSERT_TRUE(om::writeOmFile(m, path).isOk());
  std::unique_ptr<om::LoadedOm> mapped;
  ASSERT_TRUE(om::loadOmFile(path, &mapped).isOk());
  const uint8_t *w = mapped->weights();
  ASSERT_EQ(0, std::memcmp(w, m.weights.data(), m.weights.size()));
  const size_t from = 4096, bytes = 200 << 10;
  EXPECT_GT(mappedPages(w + from, bytes), 40u);
  mapped->gear(0).dropWeightPages(from, bytes); // as a gear's program does
  EXPECT_EQ(mappedPages(w + from, bytes), 0u);
  EXPECT_EQ(0, std::memcmp(w, m.weights.data(), m.weights.size()));

  std::unique_ptr<om::LoadedOm> copied;
  ASSERT_TRUE(om::loadOmBytes(serialize(m), "model.om", &copied).isOk());
  copied->dropWeightPages(0, m.weights.size());
  EXPECT_EQ(0,
            std::memcmp(copied->weights(), m.weights.data(), m.weights.size()));
  std::remove(path.c_str());
}

TEST(OmFormat, EmptyWeightsRoundTrip) {
  om::OmModel m = addReluModel();
  // No Const reads WEIGHTS once the constant becomes a second input.
  m.weights.clear();
  om::GraphDef *g = m.modelDef.mutable_graph(0);
  g->mutable_op(1)->set_type("Data");
  g->mutable_op(1)->mutable_attr()->clear();
  (*g->mutable_op(1)->mutable_attr())["index"].set_i(1);
  g->add_input("c");
  m.memoryPlan.mutable_placement(1)->mutable_location()->set_kind(
      om::MemRef::WORKSPACE);
  m.memoryPlan.mutable_placement(1)->mutable_location()->set_offset(96);
  EXPECT_EQ(loadError(serialize(m)), "");
}

TEST(OmFormat, TruncatedFile) {
  std::string bytes = serialize(addReluModel());
  std::string cut = bytes.substr(0, bytes.size() - 10);
  EXPECT_EQ(loadError(cut),
            "model.om: truncated: header says " + std::to_string(bytes.size()) +
                " bytes, file has " + std::to_string(cut.size()));
  EXPECT_EQ(loadError(bytes.substr(0, 100)),
            "model.om: truncated: file has 100 bytes, less than the 256-byte "
            "header");
  EXPECT_EQ(loadError(bytes + "xyz"),
            "model.om: size mismatch: header says " +
                std::to_string(bytes.size()) + " bytes, file has " +
                std::to_string(bytes.size() + 3) + " (trailing bytes)");
}

TEST(OmFormat, FlippedByteInEveryPartition) {
  std::string bytes = serialize(addReluModel());
  for (om::PartitionType t :
       {om::PartitionType::kModelDef, om::PartitionType::kWeights,
        om::PartitionType::kTaskInfo, om::PartitionType::kMemory}) {
    om::PartitionEntry e = entryOf(bytes, t);
    ASSERT_GT(e.size, 0u);
    for (uint64_t at :
         {e.offset, e.offset + e.size / 2, e.offset + e.size - 1}) {
      std::string bad = bytes;
      bad[at] ^= 0x01;
      EXPECT_EQ(loadError(bad), std::string("model.om: partition ") +
                                    om::partitionTypeName(t) +
                                    ": checksum mismatch")
          << "byte " << at;
    }
  }
}

TEST(OmFormat, FlippedByteInHeaderOrTable) {
  std::string bytes = serialize(addReluModel());
  std::string bad = bytes;
  bad[om::kHdrSocName + 2] ^= 0x20;
  EXPECT_EQ(loadError(bad), "model.om: header checksum mismatch");
  bad = bytes;
  bad[om::kOmHeaderSize + 9] ^= 0x01; // an offset in the table
  EXPECT_EQ(loadError(bad), "model.om: partition table checksum mismatch");
}

TEST(OmFormat, EveryFlippedByteAndEveryTruncationFails) {
  std::string bytes = serialize(addReluModel());
  ASSERT_EQ(loadError(bytes), "");
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string bad = bytes;
    bad[at] ^= 0x10;
    std::string error = loadError(bad);
    EXPECT_NE(error, "") << "byte " << at;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  for (size_t len = 0; len < bytes.size(); ++len)
    EXPECT_EQ(loadError(bytes.substr(0, len)).rfind("model.om: truncated: ", 0),
              0u)
        << "length " << len;
}

TEST(OmFormat, BadMagicAndVersion) {
  std::string bytes = serialize(addReluModel());
  std::string bad = bytes;
  bad.replace(0, 8, "PK\x03\x04zipx");
  EXPECT_EQ(loadError(bad),
            "model.om: bad magic 'PK??zipx' (expected 'GEFLOWOM'): not an OM "
            "file");
  bad = bytes;
  bad[om::kHdrFormatVersion] = 7;
  refreshHeaderChecksum(bad);
  EXPECT_EQ(loadError(bad), "model.om: unsupported format version 7 (this "
                            "loader reads version 2)");
  // Version 1 files (FNV-1a checksums) are refused, not misread.
  bad = bytes;
  bad[om::kHdrFormatVersion] = 1;
  refreshHeaderChecksum(bad);
  EXPECT_EQ(loadError(bad), "model.om: unsupported format version 1 (this "
                            "loader reads version 2)");
}

TEST(OmFormat, FileHoldsExactlyTheSerializedBytes) {
  // writeOmFile streams the weights from the model instead of assembling the
  // file in memory; the bytes must be serializeOm's.
  om::OmModel m = addReluModel();
  m.weights.resize(3 * om::kWeightAlignment + 5, 0x5a);
  m.weights.resize(4 * om::kWeightAlignment, 0);
  std::string path = tempPath("streamed.om");
  rt::Status st = om::writeOmFile(m, path);
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::ifstream in(path, std::ios::binary);
  std::string file((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(file, serialize(m));
  EXPECT_EQ(loadError(file), "");
  std::remove(path.c_str());
}

TEST(OmFormat, BorrowedWeightsAreWrittenAsIfOwned) {
  // The compiler may leave large constants outside `weights` (an imported
  // file's mapping); WEIGHTS in the file, and its checksum, are those of the
  // same bytes held in `weights`.
  om::OmModel owned = addReluModel();
  std::string big(3 * om::kWeightAlignment + 5, '\x5a');
  std::string small(7, '\x11');
  owned.weights.resize(om::kWeightAlignment, 0);
  owned.weights.insert(owned.weights.end(), big.begin(), big.end());
  owned.weights.resize(5 * om::kWeightAlignment, 0);
  owned.weights.insert(owned.weights.end(), small.begin(), small.end());
  owned.weights.resize(6 * om::kWeightAlignment, 0);

  om::OmModel borrowed = addReluModel();
  borrowed.weights.resize(om::kWeightAlignment, 0);
  borrowed.borrowedWeights = {{om::kWeightAlignment, big},
                              {5 * om::kWeightAlignment, small}};
  EXPECT_EQ(borrowed.weightsSize(), owned.weights.size());
  std::string expected(owned.weights.begin(), owned.weights.end());

  std::string path = tempPath("borrowed.om");
  rt::Status st = om::writeOmFile(borrowed, path);
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::unique_ptr<om::LoadedOm> om;
  st = om::loadOmFile(path, &om); // checks WEIGHTS' checksum
  std::remove(path.c_str());
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(om->weightsSize(), expected.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(om->weights()),
                        expected.size()),
            expected);
  std::string bytes = serialize(borrowed);
  om::PartitionEntry weights = entryOf(bytes, om::PartitionType::kWeights);
  EXPECT_EQ(bytes.substr(weights.offset, weights.size), expected);
}

TEST(OmFormat, ChecksumIsXxh3) {
  // XXH3-64 with seed 0 of "" and of "abc" (the xxHash reference values).
  EXPECT_EQ(om::omChecksum("", 0), 0x2d06800538d394c2ull);
  EXPECT_EQ(om::omChecksum("abc", 3), 0x78af5f94892f3950ull);
  // Over pieces: the checksum of their bytes back to back.
  EXPECT_EQ(om::omChecksum({"a", "", "bc"}), 0x78af5f94892f3950ull);
}

TEST(OmFormat, MissingFile) {
  std::unique_ptr<om::LoadedOm> om;
  rt::Status st = om::loadOmFile("/nonexistent/model.om", &om);
  EXPECT_EQ(st.code(), rt::StatusCode::kNotFound);
  EXPECT_EQ(st.message(),
            "/nonexistent/model.om: cannot open: No such file or directory");
}

// --- semantic checks: each gives its own message ---------------------------

struct BadModelCase {
  const char *name;
  void (*damage)(om::OmModel &);
  const char *message;
};

const BadModelCase kBadModels[] = {
    {"OpIndex",
     [](om::OmModel &m) { m.taskDef.mutable_task(1)->set_op_index(9999); },
     "model.om: task 1: op_index 9999 out of range (model has 5 ops)"},
    {"KernelOnData",
     [](om::OmModel &m) { m.taskDef.mutable_task(1)->set_op_index(0); },
     "model.om: task 1: KERNEL on op 0 'x' (Data), which is not a compute op"},
    {"StreamId",
     [](om::OmModel &m) { m.taskDef.mutable_task(4)->set_stream_id(7); },
     "model.om: task 4: stream_id 7 out of range (model has 2 streams)"},
    {"EventId",
     [](om::OmModel &m) { m.taskDef.mutable_task(2)->set_event_id(3); },
     "model.om: task 2: event_id 3 out of range (model has 1 events)"},
    {"WaitBeforeRecord",
     [](om::OmModel &m) {
       m.taskDef.mutable_task(2)->set_type(om::KERNEL);
       m.taskDef.mutable_task(2)->set_op_index(2);
       m.taskDef.mutable_task(2)->set_block_dim(1);
     },
     "model.om: task 3: EVENT_WAIT on event 0 before any EVENT_RECORD of it"},
    {"BlockDim",
     [](om::OmModel &m) { m.taskDef.mutable_task(4)->set_block_dim(0); },
     "model.om: task 4: block_dim 0 (must be 1..65535)"},
    {"MemRefOffset",
     [](om::OmModel &m) {
       m.taskDef.mutable_task(0)->mutable_dst()->set_offset(1000);
     },
     "model.om: task 0: dst: WORKSPACE range [1000, +32) outside its 128 "
     "bytes"},
    {"MemRefInputIndex",
     [](om::OmModel &m) {
       m.taskDef.mutable_task(0)->mutable_src()->set_index(3);
     },
     "model.om: task 0: src: INPUT index 3 out of range (model has 1 inputs)"},
    {"MemRefWriteInput",
     [](om::OmModel &m) {
       *m.taskDef.mutable_task(5)->mutable_dst() =
           geflow::testing::memRef(om::MemRef::INPUT, 0, 0);
     },
     "model.om: task 5: dst: destination INPUT 0 is read-only"},
    {"StreamPriorities",
     [](om::OmModel &m) { m.taskDef.add_stream_priority(1); },
     "model.om: TASK_INFO has 3 stream priorities for 2 streams"},
    {"PlacementOffset",
     [](om::OmModel &m) {
       m.memoryPlan.mutable_placement(2)->mutable_location()->set_offset(100);
     },
     "model.om: placement 2 (op 2 'add' (add)): WORKSPACE range [100, +32) "
     "outside its 128 bytes"},
    {"PlacementMissing",
     [](om::OmModel &m) { m.memoryPlan.mutable_placement()->RemoveLast(); },
     "model.om: op 4 'out' (NetOutput): input 'relu:0' has no placement in "
     "MEMORY"},
    {"ConstOutsideWeights",
     [](om::OmModel &m) {
       (*m.modelDef.mutable_graph(0)
             ->mutable_op(1)
             ->mutable_attr())["weight_offset"]
           .set_i(64);
     },
     "model.om: op 1 'c' (Const): weights [64, +32) outside WEIGHTS (64 "
     "bytes)"},
    {"ConstMisaligned",
     [](om::OmModel &m) {
       (*m.modelDef.mutable_graph(0)
             ->mutable_op(1)
             ->mutable_attr())["weight_offset"]
           .set_i(16);
     },
     "model.om: op 1 'c' (Const): weight_offset 16 is not 64-byte aligned"},
    {"InputReference",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)->mutable_op(2)->set_input(1, "k:0");
     },
     "model.om: op 2 'add' (add): input 'k:0' names no op of the graph"},
    {"NameWithANewline",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)->mutable_op(2)->set_input(1, "k\n:0");
     },
     "model.om: op 2 'add' (add): input 'k\\x0a:0' names no op of the graph"},
    {"InputOutputIndex",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)->mutable_op(3)->set_input(0, "add:2");
     },
     "model.om: op 3 'relu' (relu): input 'add:2': output 2 out of range "
     "('add' has 1 outputs)"},
    {"GraphOutput",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)->set_output(0, "nothing:0");
     },
     "model.om: graph output 0: input 'nothing:0' names no op of the graph"},
    {"GraphInput",
     [](om::OmModel &m) { m.modelDef.mutable_graph(0)->set_input(0, "c"); },
     "model.om: graph input 0 'c' is not a Data op"},
    // Declared sizes the executor would allocate or walk (bad input).
    {"BlockDimHuge",
     [](om::OmModel &m) {
       m.taskDef.mutable_task(4)->set_block_dim(0xffffffffu);
     },
     "model.om: task 4: block_dim 4294967295 (must be 1..65535)"},
    {"EventNumHuge",
     [](om::OmModel &m) { m.taskDef.set_event_num(0xffffffffu); },
     "model.om: TASK_INFO has event_num 4294967295 but only 6 tasks"},
    {"NegativeDim",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)
           ->mutable_op(0)
           ->mutable_output_desc(0)
           ->set_shape(0, -4);
     },
     "model.om: op 0 'x' (Data): output 0: dim 0 is -4"},
    {"ShapeOverflow",
     [](om::OmModel &m) {
       auto *d =
           m.modelDef.mutable_graph(0)->mutable_op(0)->mutable_output_desc(0);
       d->set_shape(0, int64_t(1) << 40);
       d->add_shape(int64_t(1) << 40);
     },
     "model.om: op 0 'x' (Data): output 0: shape of more than 2^64 bytes, over "
     "the limit of 18446744073709551615 (--max-tensor-bytes)"},
    {"SizeBelowShape",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)
           ->mutable_op(0)
           ->mutable_output_desc(0)
           ->set_size(4);
     },
     "model.om: op 0 'x' (Data): output 0: size 4 is less than its shape's 32 "
     "bytes"},
    {"UnknownDataType",
     [](om::OmModel &m) {
       m.modelDef.mutable_graph(0)
           ->mutable_op(0)
           ->mutable_output_desc(0)
           ->set_dtype(static_cast<om::DataType>(99));
     },
     "model.om: op 0 'x' (Data): output 0: unknown data type 99"},
};

class OmBadModel : public ::testing::TestWithParam<BadModelCase> {};

TEST_P(OmBadModel, GivesItsOwnMessage) {
  om::OmModel m = addReluModel();
  GetParam().damage(m);
  std::string error = loadError(serialize(m));
  EXPECT_EQ(error, GetParam().message);
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Loader, OmBadModel, ::testing::ValuesIn(kBadModels),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

TEST(OmFormat, UnparsablePartition) {
  om::OmModel m = addReluModel();
  std::string bytes = serialize(m);
  // Garbage with a valid checksum: only the protobuf parse can see it.
  om::PartitionEntry e = entryOf(bytes, om::PartitionType::kTaskInfo);
  for (uint64_t i = 0; i < e.size; ++i)
    bytes[e.offset + i] = char(0xff);
  uint64_t h = om::omChecksum(&bytes[e.offset], e.size);
  for (uint32_t i = 0; i < om::kOmPartitionCount; ++i) {
    size_t at = om::kOmHeaderSize + i * om::kOmPartitionEntrySize;
    if (uint8_t(bytes[at]) == uint32_t(om::PartitionType::kTaskInfo))
      for (int k = 0; k < 8; ++k)
        bytes[at + 24 + k] = char((h >> (8 * k)) & 0xff);
  }
  uint64_t th =
      om::omChecksum(&bytes[om::kOmHeaderSize],
                     om::kOmPartitionCount * om::kOmPartitionEntrySize);
  for (int k = 0; k < 8; ++k)
    bytes[om::kHdrTableChecksum + k] = char((th >> (8 * k)) & 0xff);
  refreshHeaderChecksum(bytes);
  EXPECT_EQ(loadError(bytes),
            "model.om: partition TASK_INFO: not a valid protobuf message");
}

TEST(OmFormat, WriterRefusesInvalidModelAndLeavesNoFile) {
  om::OmModel m = addReluModel();
  m.taskDef.mutable_task(1)->set_op_index(42);
  std::string path = tempPath("invalid.om");
  std::remove(path.c_str());
  rt::Status st = om::writeOmFile(m, path);
  EXPECT_FALSE(st.isOk());
  EXPECT_EQ(st.message(),
            path + ": task 1: op_index 42 out of range (model has 5 ops)");
  struct stat sb;
  EXPECT_NE(::stat(path.c_str(), &sb), 0);
}

TEST(OmFormat, LimitsAreCheckedBeforeAllocating) {
  std::string bytes = serialize(addReluModel());
  std::unique_ptr<om::LoadedOm> om;
  auto errorWith = [&](om::OmLimits limits) {
    rt::Status st = om::loadOmBytes(bytes, "model.om", &om, limits);
    return st.isOk() ? std::string() : st.message();
  };
  EXPECT_EQ(errorWith({}), "");
  EXPECT_EQ(errorWith({/*maxModelBytes=*/100}),
            "model.om: " + std::to_string(bytes.size()) +
                " bytes, over the limit of 100 (--max-model-bytes)");
  om::OmLimits tensor;
  tensor.maxTensorBytes = 16;
  EXPECT_EQ(errorWith(tensor), "model.om: op 0 'x' (Data): output 0: 32 bytes, "
                               "over the limit of 16 (--max-tensor-bytes)");
  om::OmLimits ops;
  ops.maxOps = 2;
  EXPECT_EQ(errorWith(ops),
            "model.om: the graph has 5 ops, over the limit of 2 (--max-nodes)");
  om::OmLimits workspace;
  workspace.maxWorkspaceBytes = 64;
  EXPECT_EQ(errorWith(workspace),
            "model.om: MEMORY plans a workspace of 128 bytes, over the limit "
            "of 64 (--max-workspace-bytes)");
}

TEST(OmFormat, WriterErrorNamesThePath) {
  rt::Status st = om::writeOmFile(addReluModel(), "/nonexistent-dir/m.om");
  EXPECT_FALSE(st.isOk());
  EXPECT_EQ(st.message(),
            "cannot write '/nonexistent-dir/m.om': No such file or directory");
}

} // namespace
