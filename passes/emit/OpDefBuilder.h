//===- OpDefBuilder.h - a ge op in the OM's OpDef form ----------*- C++ -*-===//
//
// The one conversion from MLIR to the OM's node form. Engine assignment and
// task emission both plan kernels on what it produces, and the OM carries the
// same OpDef, so the compiler and the kernels see one description of each op.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_OPDEFBUILDER_H
#define GEFLOW_PASSES_EMIT_OPDEFBUILDER_H

#include "executor/model/om.pb.h"
#include "passes/emit/KernelPlanning.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::passes {

/// GE's number for an element type (DT_UNDEFINED when there is none).
om::DataType toGeDataType(mlir::Type elementType);

/// Bytes of a statically shaped tensor type; -1 when the shape is dynamic or
/// the element type has no GE dtype.
int64_t tensorBytes(mlir::Type type);

/// dtype, shape, layout ("NCHW" for rank 4, else "ND") and size of `type`.
om::TensorDescriptor toTensorDescriptor(mlir::Type type);
/// The same for a value, whose layout is "NC1HWC0" where ge-block-channels
/// put it in blocks (ir/ChannelBlocks.h).
om::TensorDescriptor toTensorDescriptor(mlir::Value value);

/// Compute ops become KERNEL tasks: everything but ge.constant, terminators
/// and ops with regions.
bool isComputeOp(mlir::Operation *op);

/// The node name a location carries (`loc("conv1"(...))`), or "" if none.
std::string nameFromLoc(mlir::Location loc);

/// OpDef type of a ge op: its name without "ge." ("conv", "relu").
std::string opDefType(mlir::Operation *op);

/// Bytes of `value` as the WEIGHTS partition holds them: row-major, little
/// endian, one byte per bool. Appends to `out`.
llvm::Error appendElementsBytes(mlir::ElementsAttr value,
                                std::vector<uint8_t> &out);

/// Fills `def`'s type, kernel attributes, input_desc and output_desc from `op`
/// (the op's own attributes; `ge.*` scheduling attributes are not kernel
/// attributes and are left to the caller). When `refOf` is given, `input`
/// gets "producer:k" for each operand; absent optional operands in the middle
/// become "" with a DT_UNDEFINED descriptor.
llvm::Error
fillOpDef(mlir::Operation *op, om::OpDef &def,
          llvm::function_ref<std::string(mlir::Value)> refOf = nullptr);

/// "node 'conv1' (conv): <what>" as an llvm::Error.
llvm::Error opError(mlir::Operation *op, const llvm::Twine &what);

/// The kernel plan of a compute op, from its OpDef form (so the compiler and
/// the kernels agree by construction); on failure the error is emitted on `op`.
mlir::FailureOr<OpPlan> planComputeOp(mlir::Operation *op, bool requireKernels);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_OPDEFBUILDER_H
