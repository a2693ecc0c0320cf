//===- MakeBadOm.cpp - crafted bad OM artifacts ---------------------------===//
//
// The OM half of geflow-make-bad-inputs. Every case starts from a good OM
// file and damages it in one way. The checksums are recomputed afterwards
// ("resealed") wherever the damage should reach a check behind them, so the
// suite tests the loader's size, index and semantic checks and not only the
// checksums.
//
//===----------------------------------------------------------------------===//

#include "tests/badinput/BadInputs.h"

#include "executor/model/OmFormat.h"

#include <functional>
#include <limits>
#include <random>

namespace geflow::badinput {
namespace {

using namespace geflow::om;

uint64_t getU64(const std::string &b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}
uint32_t getU32(const std::string &b, size_t at) {
  return static_cast<uint32_t>(getU64(b, at) & 0xffffffffu);
}
void putU64(std::string &b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void putU32(std::string &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

size_t entryAt(PartitionType type) {
  // The writer lays the table out in its own order; find the type's entry.
  static const PartitionType order[] = {
      PartitionType::kModelDef, PartitionType::kTaskInfo,
      PartitionType::kMemory, PartitionType::kWeights};
  for (size_t i = 0; i < 4; ++i)
    if (order[i] == type)
      return kOmHeaderSize + i * kOmPartitionEntrySize;
  fail("unknown partition type");
}

/// Recomputes every checksum that can still be computed, so the damage is
/// found by the check it targets.
void reseal(std::string &b) {
  uint64_t tableOffset = kOmHeaderSize;
  uint64_t tableSize = kOmPartitionCount * kOmPartitionEntrySize;
  for (uint32_t i = 0; i < kOmPartitionCount; ++i) {
    size_t e = tableOffset + i * kOmPartitionEntrySize;
    uint64_t offset = getU64(b, e + 8), size = getU64(b, e + 16);
    if (offset <= b.size() && size <= b.size() - offset)
      putU64(b, e + 24, omChecksum(b.data() + offset, size));
  }
  putU64(b, kHdrTableChecksum, omChecksum(b.data() + tableOffset, tableSize));
  putU64(b, kHdrChecksum, omChecksum(b.data(), kHdrChecksum));
}

} // namespace

/// The good file decoded back into the compiler's OmModel.
OmModel decode(const std::string &b) {
  OmModel model;
  auto partition = [&](PartitionType type) {
    size_t e = entryAt(type);
    return b.substr(getU64(b, e + 8), getU64(b, e + 16));
  };
  if (!model.modelDef.ParseFromString(partition(PartitionType::kModelDef)) ||
      !model.taskDef.ParseFromString(partition(PartitionType::kTaskInfo)) ||
      !model.memoryPlan.ParseFromString(partition(PartitionType::kMemory)))
    fail("the good OM file does not decode");
  std::string weights = partition(PartitionType::kWeights);
  model.weights.assign(weights.begin(), weights.end());
  model.socName = b.c_str() + kHdrSocName;
  return model;
}

std::string encode(const OmModel &model) {
  std::string bytes;
  if (rt::Status s = serializeOm(model, &bytes); !s.isOk())
    fail(s.message());
  return bytes;
}

namespace {

OpDef &firstOpOfType(OmModel &m, const std::string &type) {
  for (OpDef &op : *m.modelDef.mutable_graph(0)->mutable_op())
    if (op.type() == type)
      return op;
  fail("the good model has no " + type + " op");
}

TaskDef &firstKernel(OmModel &m) {
  for (TaskDef &t : *m.taskDef.mutable_task())
    if (t.type() == KERNEL)
      return t;
  fail("the good model has no kernel task");
}

/// Damage to the decoded messages, written back with a valid container.
struct ModelCase {
  const char *file;
  std::function<void(OmModel &)> damage;
};

const std::vector<ModelCase> &modelCases() {
  static const std::vector<ModelCase> cases = {
      {"workspace_huge",
       [](OmModel &m) { m.memoryPlan.set_workspace_size(uint64_t(1) << 50); }},
      {"stream_num_huge",
       [](OmModel &m) { m.taskDef.set_stream_num(uint32_t(1) << 30); }},
      {"stream_num_0", [](OmModel &m) { m.taskDef.set_stream_num(0); }},
      {"event_num_huge",
       [](OmModel &m) { m.taskDef.set_event_num(0xffffffffu); }},
      {"task_stream_out_of_range",
       [](OmModel &m) { firstKernel(m).set_stream_id(7); }},
      {"task_op_out_of_range",
       [](OmModel &m) { firstKernel(m).set_op_index(100000); }},
      {"task_event_out_of_range",
       [](OmModel &m) {
         TaskDef *t = m.taskDef.add_task();
         t->set_type(EVENT_WAIT);
         t->set_event_id(5);
       }},
      {"task_unknown_type",
       [](OmModel &m) { firstKernel(m).set_type(static_cast<TaskType>(42)); }},
      {"block_dim_0", [](OmModel &m) { firstKernel(m).set_block_dim(0); }},
      {"block_dim_huge",
       [](OmModel &m) { firstKernel(m).set_block_dim(0xffffffffu); }},
      {"cost_huge", [](OmModel &m) { firstKernel(m).set_flops(1e300); }},
      {"cost_infinite",
       [](OmModel &m) {
         firstKernel(m).set_bytes(std::numeric_limits<double>::infinity());
       }},
      {"no_graph", [](OmModel &m) { m.modelDef.clear_graph(); }},
      {"duplicate_op_name",
       [](OmModel &m) {
         auto *ops = m.modelDef.mutable_graph(0)->mutable_op();
         ops->Mutable(1)->set_name(ops->Get(0).name());
       }},
      {"dangling_op_input",
       [](OmModel &m) {
         OpDef &op = firstOpOfType(m, "NetOutput");
         op.set_input(0, "ghost:0");
       }},
      {"unknown_op_type",
       [](OmModel &m) {
         uint32_t op = firstKernel(m).op_index();
         m.modelDef.mutable_graph(0)->mutable_op(op)->set_type("NoSuchKernel");
       }},
      {"desc_huge_shape",
       [](OmModel &m) {
         TensorDescriptor *d = firstOpOfType(m, "Data").mutable_output_desc(0);
         d->clear_shape();
         d->add_shape(int64_t(1) << 40);
         d->add_shape(int64_t(1) << 40);
       }},
      {"desc_negative_dim",
       [](OmModel &m) {
         firstOpOfType(m, "Data").mutable_output_desc(0)->set_shape(1, -4);
       }},
      {"desc_bad_dtype",
       [](OmModel &m) {
         firstOpOfType(m, "Data").mutable_output_desc(0)->set_dtype(
             static_cast<DataType>(99));
       }},
      {"weight_offset_outside",
       [](OmModel &m) {
         (*firstOpOfType(m, "Const").mutable_attr())["weight_offset"].set_i(
             int64_t(1) << 40);
       }},
      {"placement_outside_workspace",
       [](OmModel &m) {
         for (TensorPlacement &p : *m.memoryPlan.mutable_placement())
           if (p.location().kind() == MemRef::WORKSPACE) {
             p.mutable_location()->set_offset(int64_t(1) << 45);
             return;
           }
         fail("the good model has no workspace tensor");
       }},
      {"unknown_soc", [](OmModel &m) { m.socName = "no-such-chip"; }},
  };
  return cases;
}

/// Damage to the container bytes; `sealed` cases are resealed afterwards.
struct ByteCase {
  const char *file;
  bool sealed;
  std::function<void(std::string &)> damage;
};

const std::vector<ByteCase> &byteCases() {
  auto entry = [](PartitionType t) { return entryAt(t); };
  static const std::vector<ByteCase> cases = {
      {"empty", false, [](std::string &b) { b.clear(); }},
      {"header_only", false, [](std::string &b) { b.resize(kOmHeaderSize); }},
      {"short_header", false, [](std::string &b) { b.resize(100); }},
      {"bad_magic", false, [](std::string &b) { b.replace(0, 8, "NOTANOM!"); }},
      {"version_99", true,
       [](std::string &b) { putU32(b, kHdrFormatVersion, 99); }},
      {"header_checksum", false,
       [](std::string &b) { b[kHdrSocName + 2] ^= 1; }},
      {"header_size_wrong", true,
       [](std::string &b) { putU32(b, kHdrHeaderSize, 128); }},
      {"total_size_huge", true,
       [](std::string &b) { putU64(b, kHdrTotalSize, ~uint64_t(0)); }},
      {"trailing_bytes", false, [](std::string &b) { b.append(64, '\0'); }},
      {"partition_count_huge", true,
       [](std::string &b) { putU32(b, kHdrPartitionCount, 0xffffffffu); }},
      {"table_offset_huge", true,
       [](std::string &b) { putU64(b, kHdrTableOffset, ~uint64_t(0) - 8); }},
      {"table_checksum", false,
       [](std::string &b) { b[kOmHeaderSize + 5] ^= 1; }},
      {"partition_size_huge", true,
       [=](std::string &b) {
         putU64(b, entry(PartitionType::kWeights) + 16, ~uint64_t(0) - 100);
       }},
      {"partition_offset_huge", true,
       [=](std::string &b) {
         putU64(b, entry(PartitionType::kTaskInfo) + 8, uint64_t(1) << 62);
       }},
      {"partition_type_unknown", true,
       [=](std::string &b) { putU32(b, entry(PartitionType::kMemory), 77); }},
      {"partition_duplicate", true,
       [=](std::string &b) {
         putU32(b, entry(PartitionType::kMemory),
                uint32_t(PartitionType::kTaskInfo));
       }},
      {"partitions_overlap", true,
       [=](std::string &b) {
         size_t task = entry(PartitionType::kTaskInfo);
         putU64(b, task + 8, getU64(b, entry(PartitionType::kModelDef) + 8));
       }},
      {"weights_misaligned", true,
       [=](std::string &b) {
         size_t w = entry(PartitionType::kWeights);
         putU64(b, w + 8, getU64(b, w + 8) - 4);
       }},
      {"partition_checksum", false,
       [=](std::string &b) {
         b[getU64(b, entry(PartitionType::kModelDef) + 8) + 3] ^= 0x10;
       }},
      {"model_def_garbage", true,
       [=](std::string &b) {
         size_t e = entry(PartitionType::kModelDef);
         uint64_t at = getU64(b, e + 8), size = getU64(b, e + 16);
         for (uint64_t i = 0; i < size; ++i)
           b[at + i] = static_cast<char>(0xff);
       }},
      {"padding_nonzero", true,
       [=](std::string &b) {
         size_t w = entry(PartitionType::kWeights);
         uint64_t at = getU64(b, w + 8);
         b[at - 1] = 1; // the last byte of alignment padding before WEIGHTS
       }},
  };
  return cases;
}

/// Tampered files: random bytes of the protobuf partitions changed and every
/// checksum recomputed, so the parser and validator see the damage.
void writeTampered(const std::string &good, const std::string &dir) {
  size_t begin = getU64(good, entryAt(PartitionType::kModelDef) + 8);
  size_t end = getU64(good, entryAt(PartitionType::kWeights) + 8);
  for (unsigned seed = 1; seed <= 24; ++seed) {
    std::mt19937 rng(seed);
    std::string b = good;
    std::uniform_int_distribution<size_t> at(begin, end - 1);
    unsigned flips = 1 + seed % 4;
    for (unsigned i = 0; i < flips; ++i)
      b[at(rng)] ^= static_cast<char>(1u << (rng() % 8));
    reseal(b);
    writeFile(dir + "/tampered_" + std::to_string(seed) + ".om", b);
  }
}

} // namespace

void writeOmCases(const std::string &goodOm, const std::string &dir) {
  std::string good = readFile(goodOm);
  if (good.size() < kOmHeaderSize)
    fail(goodOm + " is not an OM file");
  for (const ModelCase &c : modelCases()) {
    OmModel model = decode(good);
    c.damage(model);
    writeFile(dir + "/" + c.file + ".om", encode(model));
  }
  for (const ByteCase &c : byteCases()) {
    std::string b = good;
    c.damage(b);
    if (c.sealed)
      reseal(b);
    writeFile(dir + "/" + c.file + ".om", b);
  }
  writeTampered(good, dir);
}

} // namespace geflow::badinput
