//===- StreamPlanFuzzer.cpp - bytes -> stream-plan JSON reader
//--------------===//
//
// The bytes are a stream plan file. The reader must accept it or return one
// error; an accepted plan is then queried the way the importer queries it.
//
//===----------------------------------------------------------------------===//

#include "frontends/streamplan/StreamPlan.h"

#include <cstdint>

using namespace geflow::streamplan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto plan = parseStreamPlan(text, "fuzz.json");
  if (!plan) {
    llvm::consumeError(plan.takeError());
    return 0;
  }
  // Node names like the ones the plans in tests/models/streams select.
  static const llvm::StringRef kNodes[] = {
      "", "a", "gate", "shared_expert/mm", "expert_0/Relu", "/*[!]"};
  for (llvm::StringRef node : kNodes)
    (void)plan->settingsFor(node);
  llvm::consumeError(plan->checkEveryGlobMatches(kNodes));
  for (const WaitTensor &wait : plan->waits)
    llvm::consumeError(plan->error(wait.tensorSite, wait.after));
  return 0;
}
