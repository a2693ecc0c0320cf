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

def FoldConstants : Pass<"ge-fold-constants", "::mlir::func::FuncOp"> {
  let summary = "Evaluate ops on constants with their kernels; drop no-op ops";
  let description = [{
    Constant folding (DESIGN.md pass 2). An op whose operands are all
    `ge.constant` is run once by its kernel (the same OpDef and kernel the
    executor would use) and replaced by a `ge.constant` of its results, to a
    fixed point, so whole constant subgraphs collapse; the dialect's folders
    run too. Ops that compute nothing at inference go: Identity, Dropout
    (its mask becomes a constant true), and Reshape, Flatten, Squeeze,
    Unsqueeze, Expand, Cast, Tile whose result type is the input's,
    Transpose with the identity perm, a Slice of the whole tensor, a Pad by
    zeros. Results of more than `max-elements` elements in all are not
    folded, so the weights do not grow without bound.

    ```mlir
    %0 = ge.transpose %w {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    // with %w a ge.constant, becomes
    %0 = ge.constant dense<...> : tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"1 << 20",
           "Largest result (in elements, all results together) to fold">,
  ];
}

def FuseBatchNorm : Pass<"ge-fuse-batchnorm", "::mlir::func::FuncOp"> {
  let summary = "Fold inference BatchNormalization into the preceding conv or gemm";
  let description = [{
    Op fusion (DESIGN.md pass 3). A batch norm is y = s * x + t per channel
    (s = scale / sqrt(var + epsilon), t = B - mean * s); after a conv, gemm
    or rank-2 matmul with a constant weight it folds into that op: s scales
    the weight's output channels (conv W[m], gemm/matmul B's column n) and
    the bias becomes s * bias + t. The result is the fused form of the op
    (`ge.fused_conv`, `ge.fused_gemm`, `ge.fused_matmul`) without an
    activation. Everything read must be constant and the producer's result
    must have no other user.
  }];
}

def FuseBiasActivation : Pass<"ge-fuse-bias-activation", "::mlir::func::FuncOp"> {
  let summary = "Fuse a conv/gemm/matmul with its bias Add and activation";
  let description = [{
    Op fusion (DESIGN.md pass 3). `add(cube, constant)` folds the constant
    into the cube op's bias when it broadcasts the way the fused op adds it
    (conv: along the output channel, [M, 1, 1] or [1, M, 1, 1] or a scalar;
    gemm: to [M, N] from rank <= 2; matmul: to the product), and an
    activation after a conv, gemm or matmul (Relu, Clip with constant bounds
    such as Relu6, Sigmoid, Tanh, HardSwish, LeakyRelu, HardSigmoid, and
    `ge.gelu` when the GELU pattern pass made one) becomes its `activation`.
    The result is `ge.fused_conv` / `ge.fused_gemm` / `ge.fused_matmul`.
    The intermediate result must have no other user.

    ```mlir
    %0 = ge.conv %x, %w : ... -> tensor<1x8x6x6xf32>
    %1 = ge.add %0, %b : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32>
    %2 = ge.relu %1 : tensor<1x8x6x6xf32>
    // becomes
    %2 = ge.fused_conv %x, %w, %b2 {activation = "relu"} : ...
    ```
  }];
}

def FuseResidual : Pass<"ge-fuse-residual", "::mlir::func::FuncOp"> {
  let summary = "Fuse a residual Add (and its activation) into the producing conv";
  let description = [{
    Op fusion (DESIGN.md pass 3). `act(add(conv(x), z))` with z of the conv
    output's type becomes `ge.fused_conv %x, %w, %b residual %z` with the
    activation: the conv adds z to each output tile before the activation
    (ONNX Runtime's FusedConv Z). The conv must have no activation or
    residual of its own, and its result (and the sum, for the activation)
    no other user.
  }];
}

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
