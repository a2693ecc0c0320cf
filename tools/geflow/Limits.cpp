//===- Limits.cpp ---------------------------------------------------------===//

#include "tools/geflow/Limits.h"
#include "tools/geflow/Commands.h"

using namespace llvm;
using namespace geflow::cli;

Expected<uint64_t> geflow::cli::parseByteCount(StringRef flag,
                                               StringRef value) {
  StringRef digits = value.trim();
  unsigned shift = 0;
  if (!digits.empty()) {
    switch (digits.back()) {
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    case 't':
    case 'T':
      shift = 40;
      break;
    default:
      break;
    }
  }
  if (shift)
    digits = digits.drop_back();
  uint64_t count = 0;
  if (digits.empty() || digits.getAsInteger(10, count) ||
      (shift && count > (UINT64_MAX >> shift)))
    return createStringError(inconvertibleErrorCode(),
                             "invalid --" + flag + " '" + value +
                                 "': expected a count with an optional K, "
                                 "M, G or T");
  return count << shift;
}

/// "2G" for 2^31: the largest power-of-1024 suffix that divides `count`.
static std::string byteCountText(uint64_t count) {
  const char suffixes[] = {'T', 'G', 'M', 'K'};
  for (int i = 0; i < 4; ++i) {
    unsigned shift = 40 - 10 * i;
    if (count && count % (uint64_t(1) << shift) == 0)
      return std::to_string(count >> shift) + suffixes[i];
  }
  return std::to_string(count);
}

LimitFlags::LimitFlags(cl::SubCommand &sub, unsigned flags) {
  const Limits defaults;
  // A flag not given keeps the default of Limits, the one place it is set.
  auto declare = [&](unsigned index, const char *name, const std::string &what,
                     uint64_t value) {
    if (!(flags & (1u << index)))
      return;
    help_[index] = what + " (default " + byteCountText(value) + ")";
    options_[index].emplace(StringRef(name), cl::desc(help_[index]),
                            cl::value_desc("N[K|M|G|T]"), cl::sub(sub),
                            cl::cat(geflowCategory()));
  };
  declare(0, "max-model-bytes", "Refuse a model file larger than this",
          defaults.modelBytes);
  declare(1, "max-tensor-bytes",
          "Refuse a tensor (initializer, input, intermediate) larger than this",
          defaults.tensorBytes);
  declare(2, "max-nodes", "Refuse a graph of more nodes than this",
          defaults.nodes);
  declare(3, "max-workspace-bytes",
          "Refuse a model whose run-time workspace is larger than this",
          defaults.workspaceBytes);
}

Expected<Limits> LimitFlags::parse() const {
  Limits limits;
  uint64_t *values[] = {&limits.modelBytes, &limits.tensorBytes, &limits.nodes,
                        &limits.workspaceBytes};
  for (unsigned i = 0; i < options_.size(); ++i) {
    const auto &opt = options_[i];
    if (!opt || opt->getNumOccurrences() == 0)
      continue;
    auto parsed = parseByteCount(opt->ArgStr, opt->getValue());
    if (!parsed)
      return parsed.takeError();
    *values[i] = *parsed;
  }
  return limits;
}
