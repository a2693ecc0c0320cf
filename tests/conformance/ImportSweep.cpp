//===- ImportSweep.cpp - import every ONNX backend-test model -------------===//
//
// geflow-import-sweep [--root DIR] [--floor FOLDER=N]... [--verbose]
// [FOLDER...]
//
// Imports and verifies every model.onnx under DIR/{node,pytorch-converted,
// pytorch-operator} (libonnx-testdata), and sorts each into
//   imported     the module verifies and every tensor is static,
//   bound        imported once the model's integer inputs and the inputs
//   feeding
//                shape operands were bound to the values of test_data_set_0
//                (node tests pass Reshape shapes, Slice starts, Resize scales,
//                ... as graph inputs; a static-shape compiler needs them
//                constant, as GE does). Reported apart from the strict count,
//   unsupported  it uses an op outside ir/README.md's list (or a foreign
//   domain), failed       anything else; one line each, with the importer's
//   message.
// Prints per-folder totals and the unsupported op types by frequency. Exits 1
// when a folder's imported count is below its --floor, so a regression fails
// ctest.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/OnnxImporter.h"
#include "tests/conformance/TestDataBinding.h"

#include "mlir/IR/MLIRContext.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
struct Totals {
  int imported = 0, bound = 0, unsupported = 0, failed = 0;
};

/// Binds the model's integer inputs and the inputs feeding shape operands to
/// the values of test_data_set_0, then imports it.
bool importWithBoundIntInputs(const fs::path &model, std::string &message) {
  onnx::ModelProto proto;
  {
    std::ifstream in(model, std::ios::binary);
    if (!proto.ParseFromIstream(&in))
      return false;
  }
  size_t before = proto.graph().initializer_size();
  geflow::conformance::bindShapeInputs(proto,
                                       model.parent_path() / "test_data_set_0",
                                       /*alsoIntegerInputs=*/true);
  if (proto.graph().initializer_size() == static_cast<int>(before))
    return false;
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module =
      geflow::importOnnxModel(context, std::move(proto), model.string());
  if (module)
    return true;
  message = llvm::toString(module.takeError());
  return false;
}

/// "node 'x' (Foo, opset 17): unsupported op" -> "Foo".
std::string unsupportedOpType(const std::string &message) {
  size_t open = message.find(" (");
  size_t comma = message.find(", opset", open);
  if (open == std::string::npos || comma == std::string::npos)
    return "?";
  return message.substr(open + 2, comma - open - 2);
}
} // namespace

int main(int argc, char **argv) {
  std::string root = "/usr/share/libonnx-testdata/data";
  std::map<std::string, int> floors;
  std::vector<std::string> folders;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--root" && i + 1 < argc) {
      root = argv[++i];
    } else if (arg == "--floor" && i + 1 < argc) {
      std::string value = argv[++i];
      size_t eq = value.find('=');
      if (eq == std::string::npos) {
        llvm::errs() << "error: --floor expects FOLDER=N\n";
        return 2;
      }
      floors[value.substr(0, eq)] = std::stoi(value.substr(eq + 1));
    } else if (arg == "--verbose") {
      verbose = true;
    } else if (!arg.empty() && arg[0] != '-') {
      folders.push_back(arg);
    } else {
      llvm::errs()
          << "usage: geflow-import-sweep [--root DIR] [--floor FOLDER=N]... "
             "[--verbose] [FOLDER...]\n";
      return 2;
    }
  }
  if (folders.empty())
    folders = {"node", "pytorch-converted", "pytorch-operator"};

  bool belowFloor = false;
  std::map<std::string, Totals> totals;
  for (const std::string &folder : folders) {
    fs::path dir = fs::path(root) / folder;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      llvm::errs() << "error: no test folder " << dir.string() << "\n";
      return 2;
    }
    std::vector<fs::path> models;
    for (const auto &entry : fs::directory_iterator(dir))
      if (fs::exists(entry.path() / "model.onnx"))
        models.push_back(entry.path() / "model.onnx");
    std::sort(models.begin(), models.end());

    Totals &t = totals[folder];
    std::map<std::string, int> unsupportedOps;
    for (const fs::path &model : models) {
      std::string test = model.parent_path().filename().string();
      mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
      auto module = geflow::importOnnxFile(context, model.string());
      if (module) {
        ++t.imported;
        if (verbose)
          llvm::outs() << "imported     " << folder << "/" << test << "\n";
        continue;
      }
      std::string message = llvm::toString(module.takeError());
      if (geflow::conformance::needsBinding(message) &&
          importWithBoundIntInputs(model, message)) {
        ++t.bound;
        if (verbose)
          llvm::outs() << "bound        " << folder << "/" << test << "\n";
        continue;
      }
      if (message.find(": unsupported op") != std::string::npos) {
        ++t.unsupported;
        ++unsupportedOps[unsupportedOpType(message)];
        if (verbose)
          llvm::outs() << "unsupported  " << folder << "/" << test << ": "
                       << message << "\n";
        continue;
      }
      ++t.failed;
      llvm::outs() << "FAILED       " << folder << "/" << test << ": "
                   << message << "\n";
    }

    std::vector<std::pair<int, std::string>> byCount;
    for (const auto &[op, count] : unsupportedOps)
      byCount.emplace_back(-count, op);
    std::sort(byCount.begin(), byCount.end());
    llvm::outs() << "unsupported ops in " << folder << ":";
    for (const auto &[count, op] : byCount)
      llvm::outs() << " " << op << "(" << -count << ")";
    llvm::outs() << "\n";
  }

  llvm::outs()
      << "\nfolder               imported  +bound  unsupported  failed  "
         "total  imported/supported (strict, with bound)\n";
  for (const std::string &folder : folders) {
    const Totals &t = totals[folder];
    int supported = t.imported + t.bound + t.failed;
    double strict = supported ? 100.0 * t.imported / supported : 100.0;
    double withBound =
        supported ? 100.0 * (t.imported + t.bound) / supported : 100.0;
    llvm::outs() << llvm::format(
        "%-20s %8d  %6d  %11d  %6d  %5d  %6.1f%%  %6.1f%%", folder.c_str(),
        t.imported, t.bound, t.unsupported, t.failed, supported + t.unsupported,
        strict, withBound);
    auto floor = floors.find(folder);
    if (floor != floors.end()) {
      llvm::outs() << "  (floor " << floor->second << ")";
      if (t.imported + t.bound < floor->second) {
        llvm::outs() << "  BELOW FLOOR";
        belowFloor = true;
      }
    }
    llvm::outs() << "\n";
  }
  return belowFloor ? 1 : 0;
}
