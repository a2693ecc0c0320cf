//===- PassSupport.cpp - what several passes share
//-------------------------===//

#include "passes/PassSupport.h"

#include "passes/Passes.h"

#include "runtime/soc/SocSpec.h"

namespace geflow::passes {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

mlir::LogicalResult loadSocSpecFor(mlir::Operation *anchor, llvm::StringRef soc,
                                   rt::SocSpec &spec) {
  rt::Status st = rt::loadSocSpec(soc.str(), spec);
  if (st.isOk())
    return mlir::success();
  anchor->emitError() << "SoC '" << soc << "': " << st.message();
  return mlir::failure();
}

} // namespace geflow::passes
