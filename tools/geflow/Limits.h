//===- Limits.h - the --max-* flags of geflow --------------------*- C++
//-*-===//
//
// Caps on what an input file may make geflow allocate, one place for
// their defaults, which are generous for real models:
//   --max-model-bytes      2G    the .onnx or .om file
//   --max-tensor-bytes     1G    one initializer, input, intermediate or output
//   --max-nodes            1000000 graph nodes (ONNX) or ops (OM): ten
//                                times the 100k-node graph that compiles
//                                in seconds, whose OM has more
//                                ops than nodes
//   --max-workspace-bytes  4G    the workspace a memory plan asks for (the
//                                one compile made, or an OM's at run time)
// A value is a count of bytes with an optional K, M, G or T (powers of 1024).
// Each command declares the flags that apply to it; exceeding one is a
// one-line error naming the limit, the value and the flag, raised before the
// allocation.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_LIMITS_H
#define GEFLOW_TOOLS_GEFLOW_LIMITS_H

#include "executor/model/OmModel.h"
#include "frontends/onnx/OnnxImporter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>

namespace geflow::cli {

struct Limits {
  uint64_t modelBytes = uint64_t(2) << 30;
  uint64_t tensorBytes = uint64_t(1) << 30;
  uint64_t nodes = 1000000;
  uint64_t workspaceBytes = uint64_t(4) << 30;

  ImportLimits importLimits() const { return {modelBytes, tensorBytes, nodes}; }
  om::OmLimits omLimits() const {
    return {modelBytes, tensorBytes, nodes, workspaceBytes};
  }
};

/// The --max-* options of one subcommand.
class LimitFlags {
public:
  enum Flag : unsigned {
    kModelBytes = 1,
    kTensorBytes = 2,
    kNodes = 4,
    kWorkspaceBytes = 8,
  };
  LimitFlags(llvm::cl::SubCommand &sub, unsigned flags);

  /// The values given, defaults for the rest; a malformed value is an error.
  llvm::Expected<Limits> parse() const;

private:
  // Indexed by the Flag's bit; cl::desc keeps a StringRef into help_.
  std::array<std::optional<llvm::cl::opt<std::string>>, 4> options_;
  std::array<std::string, 4> help_;
};

/// "4096", "64K", "2G": bytes with an optional power-of-1024 suffix.
llvm::Expected<uint64_t> parseByteCount(llvm::StringRef flag,
                                        llvm::StringRef value);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_LIMITS_H
