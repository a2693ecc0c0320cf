//===- GeAttrs.cpp - the ge attributes TableGen defines -------------------===//
//
// Only TableGen's output for ir/GeAttrs.td (the engine enum and its
// attribute, their parser and printer), in a file of its own so that
// sanitizer builds can compile it without ASan: see ir/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#include "ir/GeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "ir/GeEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/GeAttrs.cpp.inc"

void mlir::ge::GeDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/GeAttrs.cpp.inc"
      >();
}
