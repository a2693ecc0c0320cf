//===- DataDependent.h - Ops whose output sizes depend on data --*- C++ -*-===//
//
// GE's "third class" operators: NonZero, NonMaxSuppression, Unique and
// Compress. Their output shapes are known only once the kernel has read its
// inputs' values, so they run on the AICPU engine into buffers sized for an
// upper bound and report the real shapes to their consumers.
//
// The contract: an OpDef of one of these types (ONNX's op in snake_case,
// ONNX's inputs in order, an absent optional input as "" with an empty
// descriptor, ONNX's attributes by name) with its input descriptors set.
// upperBoundShapes() fills its output descriptors with the bounds;
// runDataDependent() then writes each output row-major in its real shape
// from the first byte of its buffer (so a consumer given the real shape reads
// the buffer as it is) and returns the real shapes.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENT_H
#define GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENT_H

#include "executor/kernels/Kernel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::kernels {

/// "non_zero", "non_max_suppression", "unique", "compress".
bool isDataDependent(const std::string &type);

/// Sets op->output_desc (type, upper-bound shape, bytes) from the input
/// descriptors and attributes: NonZero [max(rank, 1), elements] (a scalar
/// counts as one element, as numpy has it); NonMaxSuppression
/// [batches * classes * boxes, 3]; Unique always four outputs (Y, indices,
/// inverse_indices, counts), Y the input's shape (without axis: its element
/// count), the others the input's extent along the axis; Compress the
/// input's shape with the axis extent (without axis: the element count)
/// capped by the condition's length. An invalid op (ranks, dtypes,
/// attributes, unknown dims) is an error naming it.
rt::Status upperBoundShapes(om::OpDef *op);

/// Runs the op on the host (one block) and sets `realShapes` to one shape per
/// output. `op` has its input descriptors as upperBoundShapes wants them;
/// each output's buffer is described by its view's descriptor, else by the
/// op's output descriptor, and may be smaller than upperBoundShapes' bound
/// (a bound declared by the caller): an output that does not fit is an error
/// naming the op, with nothing written past the buffer. Unique writes only
/// the outputs whose view has a buffer and reports all four shapes.
rt::Status runDataDependent(const om::OpDef &op, const TensorView *inputs,
                            const TensorView *outputs,
                            std::vector<std::vector<int64_t>> *realShapes);

/// The plan planKernel gives these ops (they are registered for it): the
/// AICPU engine, one block, the cost of the op on its upper bounds.
/// createKernel refuses them (a Kernel cannot report a real shape).
rt::Status planDataDependent(const om::OpDef &op, KernelPlan *out);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENT_H
