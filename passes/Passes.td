//===- Passes.td - geflow's passes on the ge dialect ------*- tablegen -*-===//
//
// Every pass of the GE pipeline (docs/architecture.md, "The pass pipeline").
// Each is defined in the .cpp named after it and built on the generated base
// class; its options are its flags in geflow-opt. passes/Pipeline.cpp strings
// them together.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_PASSES_TD
#define GEFLOW_PASSES_TD

include "mlir/Pass/PassBase.td"

def FoldConstants : Pass<"ge-fold-constants", "::mlir::func::FuncOp"> {
  let summary = "Evaluate ops on constants with their kernels; drop no-op ops";
  let description = [{
    Constant folding (pipeline step 2). An op whose operands are all
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

def FoldQdq : Pass<"ge-fold-qdq", "::mlir::func::FuncOp"> {
  let summary = "Fold DequantizeLinear -> Conv/MatMul -> QuantizeLinear into the quantized cube op";
  let description = [{
    Quantized models in QDQ form keep their convs and matmuls in float
    between a `ge.dequantize_linear` of each operand and a
    `ge.quantize_linear` of the result; GE runs them as the int8 cube op.
    This pass does too (before constant folding, which would turn the
    weights' dequantization into float constants): the pattern becomes
    `ge.qlinear_conv` or `ge.qlinear_matmul` on the int8/uint8 operands,
    when activations and output are quantized per tensor and weights per
    tensor or per output channel (a conv's W along axis 0, a 2-D matmul b
    along its columns). A conv's bias must be constant (float, or int32
    dequantized); it becomes int32 at scale x_scale * w_scale. Absent zero
    points become constant zeros. The float op must have no other user. A
    `ge.relu` between the op and the QuantizeLinear folds too when the output
    zero point is 0 (quantization commutes with it): uint8's saturation is
    the ReLU, an int8 result gets a `ge.relu` of its own. A reshape, flatten,
    squeeze, unsqueeze or transpose between a DequantizeLinear and a
    QuantizeLinear of the same per-tensor scale and zero point runs on the
    int8 tensor, so quantized data stays quantized between cube ops.

    ```mlir
    %x = ge.dequantize_linear %xq, %xs, %xz : ...
    %w = ge.dequantize_linear %wq, %ws, %wz : ...
    %c = ge.conv %x, %w : ...
    %y = ge.quantize_linear %c, %ys, %yz : ...
    // becomes
    %y = ge.qlinear_conv %xq, %xs, %xz, %wq, %ws, %wz, %ys, %yz : ...
    ```
  }];
}

def FuseBatchNorm : Pass<"ge-fuse-batchnorm", "::mlir::func::FuncOp"> {
  let summary = "Fold inference BatchNormalization into the preceding conv or gemm";
  let description = [{
    Op fusion (pipeline step 3). A batch norm is y = s * x + t per channel
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
    Op fusion (pipeline step 3). `add(cube, constant)` folds the constant
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
    Op fusion (pipeline step 3). `act(add(conv(x), z))` with z of the conv
    output's type becomes `ge.fused_conv %x, %w, %b residual %z` with the
    activation: the conv adds z to each output tile before the activation
    (ONNX Runtime's FusedConv Z). The conv must have no activation or
    residual of its own, and its result (and the sum, for the activation)
    no other user.
  }];
}

def FuseLayerNorm : Pass<"ge-fuse-layernorm", "::mlir::func::FuncOp"> {
  let summary = "Recognise the decomposed LayerNormalization pattern";
  let description = [{
    Op fusion (pipeline step 3). ReduceMean, Sub, Pow 2 (or Mul x*x),
    ReduceMean, Add eps, Sqrt, Div (or Reciprocal and Mul), then an optional
    Mul by gamma and Add of beta, becomes one `ge.layer_normalization`
    (axis: the first reduced dim; epsilon: the constant; Scale: gamma or
    ones). Both means reduce the same trailing dims with keepdims, eps is a
    scalar constant, gamma and beta broadcast to the normalised dims, and no
    intermediate has a user outside the pattern.

    ```mlir
    %m = ge.reduce_mean %x {axes = array<i64: -1>} ...
    %d = ge.sub %x, %m ...   ...   %y = ge.add %n, %beta ...
    // becomes
    %y = ge.layer_normalization %x, %gamma, %beta {axis = 2, epsilon = 1e-5} ...
    ```
  }];
}

def FuseGelu : Pass<"ge-fuse-gelu", "::mlir::func::FuncOp"> {
  let summary = "Recognise the decomposed GELU (erf and tanh forms)";
  let description = [{
    Op fusion (pipeline step 3). `0.5 * x * (1 + erf(x / sqrt 2))` becomes
    `ge.gelu %x` and `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`
    becomes `ge.gelu %x {approximate = "tanh"}`, in the operand orders
    exporters write (x / sqrt 2 or x * 1/sqrt 2; x^3 as Pow or products;
    the outer product in any association). Constants match within 1e-4.
    Runs before ge-fuse-bias-activation, which folds ge.gelu into a matmul.
  }];
}

def FuseSwish : Pass<"ge-fuse-swish", "::mlir::func::FuncOp"> {
  let summary = "Recognise SiLU / Swish: x * sigmoid(alpha x)";
  let description = [{
    Op fusion (pipeline step 3). `x * sigmoid(x)` (PyTorch's SiLU) and
    `x * sigmoid(c * x)` for a scalar constant c (QuickGELU's 1.702) become
    `ge.swish %x {alpha = c}`, ONNX 24's Swish, in either operand order. The
    Sigmoid and the scaling Mul must have no other user. Runs before
    ge-fuse-bias-activation, which folds ge.swish into a conv or matmul.
  }];
}

def FusePadPool : Pass<"ge-fuse-pad-pool", "::mlir::func::FuncOp"> {
  let summary = "Fold a constant-zero Pad into the AveragePool it feeds";
  let description = [{
    Op fusion (pipeline step 3). PyTorch's avg_pool2d with padding and
    count_include_pad exports as `Pad(0) -> AveragePool`; the Pad's spatial
    pads become the pool's own, with `count_include_pad = 1`, and the Pad (a
    copy of its whole input) goes. The Pad must be used only by the pool and
    pad only spatial dims; a pool with uncounted pads of its own, or with
    ceil_mode, keeps its Pad.
  }];
}

def FuseAttention : Pass<"ge-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Fuse MatMul -> [scale] -> [mask] -> Softmax -> MatMul";
  let description = [{
    Op fusion (pipeline step 3). The attention core
    `softmax(scale * Q K^T + mask) V` becomes one `ge.fused_attention`
    (ir/GeFusedOps.td) whose kernel never writes the score tensor. Scalar
    constant factors on Q, on K^T or on the scores fold into `scale`; K^T
    given as a Transpose of the last two dims reads K itself
    (`k_transposed` = 0), otherwise the matmul's operand is taken as K^T
    (`k_transposed` = 1). Softmax must be along the last axis; Q, K, V must
    share their batch dims; the scores, masked scores and probabilities must
    have no other user. Runs before ge-fuse-bias-activation, which would
    otherwise take a constant mask as a matmul bias.
  }];
}

def FuseLayout : Pass<"ge-fuse-layout", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of data-movement ops that form a strided view";
  let description = [{
    Op fusion (pipeline step 3). A chain of slice (constant, positive
    steps), transpose, reshape, flatten, squeeze and unsqueeze ops, each
    read only by the next, becomes one `ge.as_strided` (offset, strides)
    when the chain reads its source as a strided view; a reshape that is no
    view of what precedes it (as torch's view() decides) cuts the chain.
    One copy replaces one per op, e.g. a transformer's head split
    slice -> reshape -> transpose.

    ```mlir
    %0 = ge.slice %qkv, %c0, %c64 axes %cm1 : ... -> tensor<16x1x64xf32>
    %1 = ge.reshape %0, %shape : ... -> tensor<16x4x16xf32>
    %2 = ge.transpose %1 {perm = array<i64: 1, 0, 2>} : ... -> tensor<4x16x16xf32>
    // becomes
    %2 = ge.as_strided %qkv {offset = 0 : i64, strides = array<i64: 16, 192, 1>} ...
    ```
  }];
}

def FuseElementwise : Pass<"ge-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise ops into one vector kernel";
  let description = [{
    Op fusion (pipeline step 3), after the other fusions. Elementwise ops
    (unary, binary with broadcasting operands, clip with constant bounds,
    gelu) with one result type, whose intermediate results are only read
    inside the chain, become one `ge.fused_elementwise` carrying the chain
    as a program (`steps`, `step_operands`, `step_params`;
    ir/GeFusedOps.td). Its kernel evaluates the program per tile, so memory
    sees the chain's inputs and its result once.

    ```mlir
    %0 = ge.add %x, %b ...  %1 = ge.mul %0, %c ...  %2 = ge.sigmoid %1 ...
    %3 = ge.mul %1, %2 ...
    // becomes
    %3 = ge.fused_elementwise %x, %b, %c {steps = ["add", "mul", "sigmoid", "mul"],
           step_operands = array<i64: 0, 1, 3, 2, 4, -1, 4, 5>} ...
    ```
  }];
  let options = [
    Option<"maxSteps", "max-steps", "unsigned", /*default=*/"16",
           "Most ops in one fused chain">,
  ];
}

def BlockChannels : Pass<"ge-block-channels", "::mlir::func::FuncOp"> {
  let summary = "Keep runs of depthwise and 1x1 convs, pools and vector ops in NC1HWC0";
  let description = [{
    Op fusion (pipeline step 3, last). A depthwise conv sweeps 16 channels
    interleaved per position; in NCHW its kernel transposes each block in and
    out. This pass finds the connected runs of ops that work in GE's NC1HWC0
    layout ([N, ceil(C / 16), H, W, 16]): convs of one group at 1x1 and
    depthwise convs, 2-D max and average pools and global_average_pool
    (`data_format` NC1HWC0), and elementwise ops (and
    `ge.fused_elementwise`) whose operands have the result's channels or
    are single values. A run whose depthwise convs and pools (the kernels
    that transpose into blocks in NCHW) move more than twice the elements of
    the run's edges is kept in NC1HWC0: a `ge.trans_data` goes on each value
    entering it and on each value leaving it, and the ops inside take the
    blocked types. Other runs stay NCHW. Convs on maps of more than
    `max-positions` output positions stay NCHW (docs/architecture.md,
    "Channel blocks", says what that measured).

    ```mlir
    %1 = ge.fused_conv %0, %w1 {group = 32 : i64, ...} : (tensor<1x32x56x56xf32>, ...) -> tensor<1x32x56x56xf32>
    %2 = ge.fused_conv %1, %w2 {...} : (tensor<1x32x56x56xf32>, tensor<24x32x1x1xf32>) -> tensor<1x24x56x56xf32>
    // becomes
    %b = ge.trans_data %0 {dst_format = "NC1HWC0", src_format = "NCHW"} : (tensor<1x32x56x56xf32>) -> tensor<1x2x56x56x16xf32>
    %1 = ge.fused_conv %b, %w1 {data_format = "NC1HWC0", group = 32 : i64, ...} : ... -> tensor<1x2x56x56x16xf32>
    %2 = ge.fused_conv %1, %w2 {data_format = "NC1HWC0", ...} : ... -> tensor<1x2x56x56x16xf32>
    %3 = ge.trans_data %2 {dst_format = "NCHW", src_format = "NC1HWC0"} : ... -> tensor<1x24x56x56xf32>
    ```
  }];
  let options = [
    Option<"maxPositions", "max-positions", "int64_t", /*default=*/"196",
           "Convs with more output positions stay NCHW">,
  ];
}

def AssignEngines : Pass<"ge-assign-engines", "::mlir::func::FuncOp"> {
  let summary = "Set ge.engine on every compute op from its kernel plan";
  let description = [{
    Engine assignment (pipeline step 4). Each compute op is converted to the
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

def ApplyAnnotations : Pass<"ge-apply-annotations", "::mlir::func::FuncOp"> {
  let summary = "Turn user stream scopes and core limits into ge.* attributes";
  let description = [{
    Pipeline step 5. Every `ge.npu_stream_switch` and `ge.limit_core_num`
    region is inlined into its parent and its ops get the scope's attributes:
    `ge.stream_label`, `ge.stream_priority`, `ge.inner_parallel` and
    `ge.aicore_num` / `ge.vectorcore_num`. An op's own attribute wins over
    its scope, an inner scope over an outer one. `ge.npu_wait_tensor` edges
    stay for event insertion.

    Every core limit (from a scope, an ONNX `_op_aicore_num` /
    `_op_vectorcore_num` or a stream plan) is then checked against the SoC:
    a plain integer from 1 to the chip's cube (vector) core count; a vector
    core limit of 0 only on a chip without vector cores. The error names the
    node, the GE attribute and the allowed range.

    ```mlir
    %r = ge.npu_stream_switch "1" priority(0) inner_parallel(true) {
      %y = ge.relu %x : tensor<4xf32>
      ge.yield %y : tensor<4xf32>
    } : tensor<4xf32>
    // becomes
    %r = ge.relu %x {ge.stream_label = "1", ge.stream_priority = 0 : i64,
                     ge.inner_parallel = true} : tensor<4xf32>
    ```
  }];
  let options = [
    Option<"soc", "soc", "std::string", /*default=*/"\"ascend910b-sim\"",
           "SoC preset name or spec file the core limits are checked against">,
  ];
}

def AssignStreams : Pass<"ge-assign-streams", "::mlir::func::FuncOp"> {
  let summary = "Logical stream assignment: ge.stream on every compute op";
  let description = [{
    Pipeline step 6 (passes/streams/StreamAssignment.h has the algorithm).
    `single` puts everything on stream 0 and rejects user stream labels, as
    GE does; `label` gives each user label a stream and leaves the rest on
    stream 0; `auto` adds GE's split by dependency (and streams of their own
    for AICPU/DVPP ops), then keeps each extra stream only when the simulated
    makespan (the runtime's hardware scheduler replaying the kernels' costs)
    is at least 2 % shorter with it, so `auto` is never predicted slower
    than `label`. Ids are compacted: the main stream is 0.

    The prediction needs each op's block_dim and cost: ge-emit-tasks runs
    first in the pipeline; run alone, this pass sizes the tasks itself. `auto` records its predictions on the
    function as `ge.predicted_makespan_ns` = [one stream, labels only, chosen].
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"auto\"",
           "single, label or auto">,
    Option<"maxStreams", "max-streams", "unsigned", /*default=*/"0",
           "At most this many streams (0: no cap)">,
    Option<"soc", "soc", "std::string", /*default=*/"\"ascend910b-sim\"",
           "SoC preset name or spec file the prediction simulates">,
    Option<"aicoreNum", "aicore-num", "unsigned", /*default=*/"0",
           "Global cube core limit (0: the chip's)">,
    Option<"vectorcoreNum", "vectorcore-num", "unsigned", /*default=*/"0",
           "Global vector core limit (0: the chip's)">,
  ];
}

def InsertEvents : Pass<"ge-insert-events", "::mlir::func::FuncOp"> {
  let summary = "Order cross-stream dependencies with the fewest events";
  let description = [{
    Event insertion (pipeline step 7). Every compute op runs on its
    `ge.stream` (none: 0). An op depends on the producers of its operands;
    `ge.npu_wait_tensor %self, %dep` is transparent (its users depend on the
    producers of both) and is erased at the end, its result replaced by
    `%self`; a block argument depends on the input copies, which run first on
    stream 0. A dependency on another stream needs an event: a Send right
    after the producer on its stream, a Recv right before the consumer.

    Walking the ops in order with vector clocks (passes/streams/HappensBefore.h),
    a dependency already ordered by stream order plus earlier waits gets no
    event (the transitive reduction of happens-before); an op's dependencies
    are taken latest first, so one wait covers the earlier ones it implies.
    Event ids are 0..E-1 in order of use.

    Writes `ge.send_events` on producers (on the function for the input
    copies: Sends on stream 0 right after them), `ge.recv_events` on
    consumers, and on the function `ge.events_before_reduction`, the number
    of cross-stream dependencies.

    ```mlir
    %a = ge.relu %x                    // ge.send_events = array<i64: 0>
    %b = ge.relu %a {ge.stream = 1}    // ge.recv_events = array<i64: 0>
    ```
  }];
}

def PlanMemory : Pass<"ge-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "Place every intermediate tensor in one workspace, reusing dead buffers";
  let description = [{
    Memory planning (pipeline step 8). Liveness runs over the final op order:
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
    that is the op order. When ops carry `ge.stream` ids other than 0 it is
    happens-before over the task list the emitter will build: stream order
    plus the `ge.send_events`/`ge.recv_events` of ge-insert-events, which
    therefore runs first (a remaining `ge.npu_wait_tensor` is an error).
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
    The per-op half of task emission (pipeline step 9), as attributes so lit
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

def LowerRecurrent : Pass<"ge-lower-recurrent", "::mlir::func::FuncOp"> {
  let summary = "Split LSTM/GRU/RNN into one input matmul and a recurrence";
  let description = [{
    Pipeline step 2, before constant folding. `ge.lstm`, `ge.gru` and
    `ge.rnn` become X * W^T for all time steps and directions as one
    `ge.matmul` (X reshaped to [T*B, I], W transposed to [D, I, gates*H]),
    and `ge.lstm_recurrence` / `ge.gru_recurrence` / `ge.rnn_recurrence`,
    whose one kernel runs the T sequential steps. Results and attributes are
    the recurrent op's.
  }];
}

def LowerEinsum : Pass<"ge-lower-einsum", "::mlir::func::FuncOp"> {
  let summary = "Rewrite einsum as transpose, reshape, batched matmul and sum";
  let description = [{
    Pipeline step 2, before constant folding. A float32 `ge.einsum` of one or
    two operands whose letters each appear once per operand, with equal dims
    wherever they repeat across operands, becomes `ge.reduce_sum` over the
    letters only one operand has, `ge.transpose` + `ge.reshape` of each
    operand to [batch, rows, summed] and [batch, summed, columns], one
    `ge.matmul`, and a reshape + transpose into the output's order (one
    operand: the sum and the transpose). Other equations (a diagonal, three
    or more operands, broadcast dims) stay for the einsum kernel.
  }];
}

#endif // GEFLOW_PASSES_TD
