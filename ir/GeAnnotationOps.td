//===- GeAnnotationOps.td - user annotation ops ------------*- tablegen -*-===//
//
// torchair's annotations in textual form. A pass turns them into the
// discardable scheduling attributes plus ordering edges.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEANNOTATIONOPS_TD
#define GEFLOW_IR_GEANNOTATIONOPS_TD

def Ge_NpuStreamSwitchOp : Ge_Op<"npu_stream_switch", [
    RecursiveMemoryEffects, SingleBlock, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "put the ops of the region on the user stream `tag`";
  let description = [{
    torchair's `npu_stream_switch` scope in textual form: every op of the
    region goes on the user stream `tag` (`ge.stream_label`), with the
    stream's `priority` (`ge.stream_priority`) and whether automatic stream
    assignment may split the scope further (`ge.inner_parallel`). An op's
    own attribute wins over the scope, the innermost scope over outer ones;
    `ge-apply-annotations` writes the attributes and inlines the region.

    ```mlir
    %r = ge.npu_stream_switch "moe" priority(0) inner_parallel(true) {
      %y = ge.relu %x : tensor<4xf32>
      ge.yield %y : tensor<4xf32>
    } : tensor<4xf32>
    ```
  }];
  let arguments = (ins StrAttr:$tag, Ge_I64Attr:$priority, BoolAttr:$inner_parallel);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $tag `priority` `(` $priority `)` `inner_parallel` `(` $inner_parallel `)`
    $body attr-dict (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

def Ge_LimitCoreNumOp : Ge_Op<"limit_core_num", [
    RecursiveMemoryEffects, SingleBlock, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "cap the cube (aic) and vector (aiv) cores of the region's ops";
  let description = [{
    torchair's `limit_core_num(aic, aiv)` scope: each op of the region may
    take at most `aicore_num` cube and `vectorcore_num` vector cores
    (`ge.aicore_num`, `ge.vectorcore_num`); aic >= 1, aiv >= 0. An op's own
    limit wins over the scope's; `ge-apply-annotations` checks the limits
    against the SoC, writes the attributes and inlines the region.

    ```mlir
    %w = ge.limit_core_num(8, 16) {
      ...
      ge.yield %v : tensor<4xf32>
    } : tensor<4xf32>
    ```
  }];
  let arguments = (ins Ge_I64Attr:$aicore_num, Ge_I64Attr:$vectorcore_num);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $aicore_num `,` $vectorcore_num `)` $body attr-dict (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

def Ge_NpuWaitTensorOp : Ge_Op<"npu_wait_tensor", [AllTypesMatch<["self", "output"]>]> {
  let summary = "self, unchanged, ordered after the producer of dependency";
  let description = [{
    torchair's `npu_wait_tensor(self, dependency)`: returns `self` unchanged,
    and every reader of the result runs after the producer of `dependency` has
    finished. Made by the importer from a stream plan's `wait_tensor` entry (or
    written by hand); `ge-insert-events` turns it into an event between the two
    streams, when stream order does not already imply it, and erases it. A graph
    output keeps the unwaited value.
  }];
  let arguments = (ins AnyType:$self, AnyType:$dependency);
  let results = (outs AnyType:$output);
  let assemblyFormat = [{
    $self `,` $dependency attr-dict `:` type($self) `,` type($dependency)
  }];
}

def Ge_YieldOp : Ge_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["NpuStreamSwitchOp", "LimitCoreNumOp"]>]> {
  let summary = "the results of an annotation region";
  let description = [{
    Terminates the single block of `ge.npu_stream_switch` and
    `ge.limit_core_num`; its operand types equal the parent's results.
    `ge-apply-annotations` inlines the region and drops it.
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEANNOTATIONOPS_TD
