//===- Passes.td - geflow's passes on the ge dialect ------*- tablegen -*-===//
//
// Every pass of the GE pipeline (DESIGN.md, "Passes (pipeline order)"). Each is
// defined in the .cpp named after it and built on the generated base class; its
// options are its flags in geflow-opt. passes/Pipeline.cpp strings them together.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_PASSES_TD
#define GEFLOW_PASSES_TD

include "mlir/Pass/PassBase.td"

def AssignEngines : Pass<"ge-assign-engines", "::mlir::func::FuncOp"> {
  let summary = "Set ge.engine on every compute op from its kernel plan";
  let description = [{
    Engine assignment (DESIGN.md pass 4). Each compute op is converted to the
    OpDef the OM artifact will carry and handed to `kernels::planKernel`, so the
    engine the compiler schedules is the one the kernel runs on: cube work
    (conv, conv_transpose, gemm, matmul, fused forms) on `AIC`, the rest on
    `AIV`. An op whose kernel does not exist yet gets the same rule from the
    compiler's own table, unless `require-kernels` is set, which makes it an
    error naming the node. `ge.constant` ops get no engine: they are weights.
    An existing `ge.engine` (set by a user or an earlier pass) is kept.

    ```mlir
    %0 = ge.conv %x, %w : ... -> tensor<1x8x6x6xf32>   // ge.engine = "AIC"
    %1 = ge.relu %0 : tensor<1x8x6x6xf32>              // ge.engine = "AIV"
    ```
  }];
  let options = [
    Option<"requireKernels", "require-kernels", "bool", /*default=*/"false",
           "Fail on an op that has no kernel instead of using the compiler's "
           "engine table">,
  ];
}

def PlanMemory : Pass<"ge-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "Place every intermediate tensor in one workspace, reusing dead buffers";
  let description = [{
    Memory planning (DESIGN.md pass 8). Liveness runs over the final op order:
    a tensor is live from the op that writes it to its last reader; graph
    inputs are live from the start (the executor copies them in first) and
    graph outputs to the end (copied out last). Every op writes a fresh buffer,
    so an output never shares memory with an input of the same op. Buffers are
    placed largest first, each in the smallest gap (best fit) left by the
    already placed buffers whose lifetimes it overlaps, at `alignment`-byte
    offsets. Constants are not placed: they live in the weights partition.

    The result is recorded as attributes: `ge.output_offsets` (array<i64>,
    one offset per result) on each op, and on the function
    `ge.input_offsets` (one per argument), `ge.workspace_size` and
    `ge.workspace_size_no_reuse` (the sum of all aligned buffers).

    Reuse is decided by one predicate (MemoryPlanner.h), "every use of the
    earlier buffer is ordered before the later buffer's writer". On one stream
    that is the op order. When ops carry `ge.stream` ids other than 0, memory
    passes on only within a stream, from buffers whose readers are all on it;
    event insertion can widen that with the events it places.
  }];
  let options = [
    Option<"reuse", "reuse", "bool", /*default=*/"true",
           "Let a buffer take the memory of buffers that are dead">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Byte alignment of every offset and size">,
  ];
}

def EmitTasks : Pass<"ge-emit-tasks", "::mlir::func::FuncOp"> {
  let summary = "Annotate every compute op with its task: block_dim and cost";
  let description = [{
    The per-op half of task emission (DESIGN.md pass 9), as attributes so lit
    tests can see it: `ge.block_dim` (i64), `ge.flops` and
    `ge.bytes` (f64). The cost and the largest useful split come from the
    op's kernel plan (or the compiler's estimate from the shapes when there is
    no kernel yet); block_dim is the CostModel's best split for the op on the
    chip, at most the plan's maxBlocks, the engine's cores on the SoC and the
    op's core limit (`ge.aicore_num` / `ge.vectorcore_num`). Ops without
    `ge.engine` get one from the plan. The OM model itself is built by
    `emitOmModel` (passes/emit/OmEmitter.h) from the annotated module.
  }];
  let options = [
    Option<"soc", "soc", "std::string", /*default=*/"\"ascend910b-sim\"",
           "SoC preset name or spec file the tasks are sized for">,
    Option<"requireKernels", "require-kernels", "bool", /*default=*/"false",
           "Fail on an op that has no kernel instead of estimating its cost">,
  ];
}

#endif // GEFLOW_PASSES_TD
