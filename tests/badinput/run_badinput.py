#!/usr/bin/env python3
"""The bad-input suite: geflow on crafted bad files.

For every case the CLI must exit with status exactly 1 (no signal, no hang),
print exactly one line on stderr, 'geflow: error: ...', that matches the
case's pattern (the problem and its place), and leave no file behind: neither
the output nor a temporary.

  run_badinput.py --geflow BIN --maker BIN --work DIR [--extra DIR] [-k NAME]

geflow-make-bad-inputs (--maker) writes the crafted models, OM artifacts and
tensor files into DIR/gen; truncations and bit flips of the good files are made
here with fixed seeds. --extra DIR (or $GEFLOW_BADINPUT_EXTRA) throws every file
of DIR at import, compile, run and dump as well: each may succeed, but a
failure must follow the same rules.
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys

TIMEOUT_S = 60

# A case: name, the geflow arguments ({gen}: the crafted files, {out}: a fresh
# empty folder for outputs), the pattern its one line must match, and
# optionally files to create in {out} first and whether success is allowed
# (bit flips may leave a model valid).
CASES = []


def case(name, args, pattern, setup=None, may_succeed=False):
    CASES.append(dict(name=name, args=args, pattern=pattern,
                      setup=setup or {}, may_succeed=may_succeed))


def in_model(name, pattern):
    """The line of an error in the model `name`: its path once, first."""
    n = re.escape(name)
    return rf"^geflow: error: '[^']*\b{n}': (?!.*\b{n}\b).*(?:{pattern})"


def onnx_cases():
    imp = ["import", "-o", "{out}/m.mlir"]
    comp = ["compile", "-o", "{out}/m.om"]
    for cmd, head in (("import", imp), ("compile", comp)):
        case(f"{cmd}-missing-file", head + ["{gen}/no-such-model.onnx"],
             r"no-such-model\.onnx.*(No such file|not found)")
        case(f"{cmd}-empty-file", head + ["{gen}/empty.bin"],
             r"empty\.bin.*not an ONNX model")
        case(f"{cmd}-directory", head + ["{gen}"],
             r"'.*gen'.*(directory|not a regular file|folder)")
        case(f"{cmd}-text-file", head + ["{gen}/text.onnx"],
             r"text\.onnx.*not an ONNX model")
    bad = {
        "no_graph": r"not an ONNX model \(no graph",
        "ir_version_0": r"ir_version",
        "no_default_opset": r"opset",
        "opset_999": r"opset.*999",
        "unsupported_op": r"node 'relu' \(Multinomial.*unsupported op",
        "unknown_op": r"node 'relu' \(NoSuchOp.*unsupported op",
        "empty_op_type": r"node .*(op type|unsupported)",
        "foreign_domain": r"node 'relu' \(com\.microsoft\.Relu.*domain",
        "dangling_input": r"node 'add'.*'nowhere'",
        "dangling_output": r"graph output 'ghost'",
        "cycle": r"node 'relu'.*'s'",
        "self_loop": r"node 'relu'.*'r'",
        "duplicate_node_output": r"node 'add'.*'r'.*(twice|already|defined)",
        "duplicate_graph_output": r"graph output 'y'.*(twice|duplicate)",
        "output_shadows_input": r"node 'relu'.*'x'.*(twice|already|defined)",
        "no_outputs": r"no (graph )?outputs",
        "no_nodes": r"no (graph )?outputs",
        "missing_operand": r"node 'add' \(Add",
        "extra_operand": r"node 'relu' \(Relu",
        "wrong_attr_type": r"node 'matmul' \(Gemm.*transA",
        "bad_conv_attrs": r"node 'relu' \(Conv.*(kernel_shape|input W 'w' must be of X's rank)",
        "negative_input_dim": r"input 'x'.*-4",
        "huge_input_dims": r"'x'.*max-tensor-bytes",
        "overflow_input_dims": r"'x'.*(overflow|max-tensor-bytes)",
        "symbolic_input_dim": r"input 'x'.*dynamic shape.*--input-shape",
        "string_input": r"'x'.*(string|element type)",
        "complex_input": r"'x'.*(complex|element type)",
        "raw_data_short": r"initializer 'w'.*holds 4 bytes.*needs 32",
        "raw_data_long": r"initializer 'w'.*holds 4096 bytes.*needs 32",
        "initializer_huge_dims": r"initializer 'w'.*max-tensor-bytes",
        "initializer_overflow_dims": r"initializer 'w'.*(overflow|max-tensor-bytes)",
        "initializer_negative_dim": r"initializer 'w'.*-2",
        "initializer_float_data_count": r"initializer 'w'.*(1 value|float_data|elements)",
        "initializer_undefined_type": r"initializer 'w'.*(type|UNDEFINED)",
        "initializer_bad_type_code": r"initializer 'w'.*(type|1234)",
        "external_data_missing": r"initializer 'w'.*weights_that_do_not_exist",
        "external_data_escapes": r"initializer 'w'.*/etc/passwd",
        "external_data_huge_length": r"initializer 'w'.*external data",
        "constant_of_shape_huge": r"'zeros'.*max-tensor-bytes",
        # libonnx infers Reshape's [3,3] and finds the mismatch at its reader.
        "reshape_wrong_count": r"node '(relu|add)' \((Reshape|Add)\)",
        "constant_without_value": r"node 'const' \(Constant",
        # `import` has no If; `compile` runs it with shapes resolved at run
        # time and refuses a branch that is not a graph when it checks.
        "subgraph_op": r"node 'relu' \(If.*(?:unsupported op|shape inference "
                       r"failed: Attribute then_branch does not contain a graph)",
    }
    for model, pattern in bad.items():
        for cmd, head in (("import", imp), ("compile", comp)):
            # compile takes it: its shapes are resolved at run time.
            if (cmd, model) == ("compile", "symbolic_input_dim"):
                continue
            # The line names the model once, first, then the problem.
            case(f"{cmd}-{model}", head + [f"{{gen}}/{model}.onnx"],
                 in_model(f"{model}.onnx", pattern))
    # Opset 1 is old but real: it converts to 17 and imports.
    case("compile-opset_1", comp + ["{gen}/opset_1.onnx"], r".", may_succeed=True)
    case("compile-max-nodes", comp + ["{gen}/many_nodes.onnx", "--max-nodes", "100"],
         r"many_nodes\.onnx.*203 nodes.*--max-nodes")
    case("import-max-model-bytes", imp + ["{gen}/good.onnx", "--max-model-bytes", "64"],
         r"good\.onnx.*bytes.*--max-model-bytes")
    case("compile-max-tensor-bytes", comp + ["{gen}/good.onnx", "--max-tensor-bytes", "16"],
         in_model("good.onnx", r"initializer 'w'.*32 bytes.*--max-tensor-bytes"))
    case("compile-max-workspace-bytes",
         comp + ["{gen}/good.onnx", "--max-workspace-bytes", "16", "--dump-graph", "{out}/dumps"],
         in_model("good.onnx", r"the memory plan needs a workspace of \d+ bytes, "
                  r"over the limit of 16 \(--max-workspace-bytes\)$"))
    case("compile-bad-workspace-limit", comp + ["{gen}/good.onnx", "--max-workspace-bytes", "4Q"],
         r"max-workspace-bytes.*4Q")
    case("compile-bad-limit-value", comp + ["{gen}/good.onnx", "--max-nodes", "lots"],
         r"max-nodes.*lots")
    case("compile-unknown-input-shape", comp + ["{gen}/good.onnx", "--input-shape", "nope:1,4"],
         r"'nope'")
    case("compile-input-shape-rank", comp + ["{gen}/good.onnx", "--input-shape", "x:1,4,5"],
         r"'x'")
    case("compile-input-shape-overflow",
         comp + ["{gen}/good.onnx", "--input-shape", "x:99999999999999999999,4"],
         r"input-shape")
    case("compile-unknown-soc", comp + ["{gen}/good.onnx", "--soc", "no-such-chip"],
         r"no-such-chip")
    case("compile-aicore-num-too-big", comp + ["{gen}/good.onnx", "--aicore-num", "999|1"],
         r"aicore-num.*999")
    case("compile-aicore-num-garbage", comp + ["{gen}/good.onnx", "--aicore-num", "x|y"],
         r"aicore-num")
    case("compile-stream-plan-missing",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/no-plan.json"], r"no-plan\.json")
    case("compile-stream-plan-not-json",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/text.onnx"], r"text\.onnx")
    case("compile-stream-plan-bad-core-limit",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/plan_core_limit.json"],
         in_model("good.onnx", r"node 'relu'.*_op_aicore_num is 999"))
    case("compile-stream-plan-wrong-type",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/plan_wrong_type.json"],
         r"plan_wrong_type\.json.*priority")
    case("compile-stream-plan-unknown-tensor",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/plan_unknown_tensor.json"],
         r"plan_unknown_tensor\.json.*'ghost'")
    case("compile-stream-plan-syntax",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/plan_syntax.json"],
         r"plan_syntax\.json")
    case("compile-stream-plan-vector-limit",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}/plan_vector_limit.json"],
         in_model("good.onnx", r"node 'relu'.*_op_vectorcore_num is 999"))
    case("compile-stream-plan-directory",
         comp + ["{gen}/good.onnx", "--stream-plan", "{gen}"], r"gen")
    case("compile-soc-directory", comp + ["{gen}/good.onnx", "--soc", "{gen}"], r"gen")
    case("compile-aicore-num-vector-too-big",
         comp + ["{gen}/good.onnx", "--aicore-num", "1|999"], r"aicore-num.*999")
    case("compile-soc-ini-bad",
         comp + ["{gen}/good.onnx", "--soc", "{gen}/bad_soc.ini"], r"bad_soc\.ini")
    # Outputs that cannot be written.
    case("compile-output-unwritable", ["compile", "{gen}/good.onnx", "-o", "/proc/geflow-bad.om"],
         r"/proc/geflow-bad\.om")
    case("compile-output-no-folder", ["compile", "{gen}/good.onnx", "-o", "{out}/nodir/m.om"],
         r"nodir/m\.om")
    case("compile-output-is-folder", ["compile", "{gen}/good.onnx", "-o", "{out}/dir"],
         r"dir", setup={"dir/": None})
    case("compile-dump-graph-is-file",
         comp + ["{gen}/good.onnx", "--dump-graph", "{out}/file"], r"dump-graph.*file",
         setup={"file": "keep me"})
    case("compile-error-leaves-no-dumps",
         comp + ["{gen}/unsupported_op.onnx", "--dump-graph", "{out}/dumps"],
         r"unsupported op")
    case("compile-late-error-leaves-no-dumps",
         ["compile", "{gen}/good.onnx", "-o", "/proc/geflow-bad.om", "--dump-graph",
          "{out}/dumps"], r"/proc/geflow-bad\.om")
    case("import-output-unwritable", ["import", "{gen}/good.onnx", "-o", "/proc/geflow-bad.mlir"],
         r"/proc/geflow-bad\.mlir")
    case("import-output-is-folder", ["import", "{gen}/good.onnx", "-o", "{out}/dir"],
         r"dir", setup={"dir/": None})


def gear_cases():
    """ATC's gear options (--dynamic-batch-size, --dynamic-image-size,
    --dynamic-dims) on x[N,4] (dynamic_batch) and x[N,F] (dynamic_dims)."""
    batch, dims = "dynamic_batch", "dynamic_dims"
    bs, ds = "--dynamic-batch-size", "--dynamic-dims"
    table = [
        ("two-options", batch, [bs, "1,2", ds, "1;2"],
         r"give exactly one of --dynamic-batch-size, --dynamic-image-size and "
         r"--dynamic-dims \(2 given\)$"),
        ("one-gear", batch, [bs, "4"], r"--dynamic-batch-size '4': 1 gears; ATC allows 2 to 100$"),
        ("101", batch, [bs, ",".join(map(str, range(1, 102)))],
         r"101 gears; ATC allows 2 to 100$"),
        ("duplicate", batch, [bs, "1,2,1"], r"'1,2,1': gear 2 \(1\) repeats gear 0$"),
        ("zero", batch, [bs, "0,2"], r"'0' is not a positive integer$"),
        ("negative", dims, [ds, "1,4;-2,4"], r"'-2' is not a positive integer$"),
        ("garbage", batch, [bs, "1,two"], r"'two' is not a positive integer$"),
        ("empty-entry", batch, [bs, "1,,2"], r"'' is not a positive integer$"),
        ("no-open-dim", "good", [bs, "1,2"], r"--dynamic-batch-size: no input has a -1 dim"),
        ("batch-not-at-dim-0", dims, [bs, "1,2"],
         r"needs each input's -1 at dim 0, but input 'x' has one at dim 1$"),
        ("image-size-not-nchw", batch, ["--dynamic-image-size", "2,2;4,4"],
         r"needs the -1s at H and W \(dims 2, 3\) of a 4-D NCHW input, but "
         r"input 'x' is \[-1,4\]$"),
        ("profile-too-short", dims, [ds, "1,4;2"],
         r"gear 1 \(2\) has 1 value\(s\), the inputs' -1s need 2$"),
        ("minus-one-on-fixed-dim", batch, ["--input-shape", "x:-1,-1", ds, "1,4;2,4"],
         r"input 'x' dim 1 is fixed to 4 by the model, not -1$"),
        ("minus-one-without-gears", batch, ["--input-shape", "x:-1,4"],
         r"input 'x' dim 0 is -1; give its values with --dynamic-batch-size"),
        ("input-shape-below-minus-one", batch, ["--input-shape", "x:-2,4"],
         r"--input-shape 'x:-2,4'.*'-2'"),
        # A gear the model cannot take: the line names the gear.
        ("gear-fails-to-compile", dims, [ds, "1,4;2,5"], r"gear Batch_1 \(2,5\): .*"),
    ]
    for name, model, args, pattern in table:
        case(f"gears-{name}", ["compile", f"{{gen}}/{model}.onnx", "-o", "{out}/m.om",
                               "--dump-graph", "{out}/dumps"] + args, pattern)
    # The loader's gear checks: each line names the file and the gear.
    damaged = {
        "one_gear": r"gear table: 1 gears \(must be 2\.\.100\)$",
        "graph_missing": r"gear table: 2 gears but 1 graphs in MODEL_DEF$",
        "dims_wrong": r"gear 1 'Batch_1': input 0 shape \[2,4\] is not the template "
                      r"filled with its dims \[3,4\]$",
        "output_shape_wrong": r"gear 1 'Batch_1': output 0 shape \[7,2\] differs",
        "top_level_task": r"TASK_INFO has 1 top-level tasks",
        "workspace_small": r"gear 0 'Batch_0': workspace of \d+ bytes, over the model's 0$",
        "program_op_out_of_range": r"gear 1 'Batch_1': task \d+: op_index 100000 out of range",
        "runtime_without_source": r"a RUNTIME_SHAPES model without source_model$",
    }
    for name, pattern in damaged.items():
        for cmd in (["dump", "-o", "{out}/d.txt"], ["run", "--output-dir", "{out}/outputs"]):
            case(f"gears-{cmd[0]}-{name}", cmd + [f"{{gen}}/gears_{name}.om"],
                 rf"^geflow: error: [^ ]*gears_{name}\.om: {pattern}")
    for model, gear, pattern in (("gears", 2, r"2 gear\(s\) \(0\.\.1\)$"),
                                 ("good", 1, r"1 gear\(s\) \(0\.\.0\)$")):
        case(f"gears-dump-{model}-gear-{gear}", ["dump", f"{{gen}}/{model}.om", "--gear", str(gear)],
             rf"--gear {gear}: '.*{model}\.om' has {pattern}")


def om_cases():
    run = ["run", "--output-dir", "{out}/outputs"]
    bad = {
        "empty": r"empty\.om.*truncated",
        "header_only": r"header_only\.om.*(truncated|checksum)",
        "short_header": r"short_header\.om.*truncated",
        "bad_magic": r"bad_magic\.om.*bad magic",
        "version_99": r"version_99\.om.*format version 99",
        "header_checksum": r"header_checksum\.om.*header checksum",
        "header_size_wrong": r"header size 128",
        "total_size_huge": r"total_size_huge\.om.*truncated",
        "trailing_bytes": r"trailing bytes",
        "partition_count_huge": r"partition count 4294967295",
        "table_offset_huge": r"partition table .* outside the file",
        "table_checksum": r"partition table checksum",
        "partition_size_huge": r"partition WEIGHTS.*outside the file",
        "partition_offset_huge": r"partition TASK_INFO.*outside the file",
        "partition_type_unknown": r"unknown partition type 77",
        "partition_duplicate": r"duplicate partition TASK_INFO",
        "partitions_overlap": r"overlap",
        "weights_misaligned": r"WEIGHTS.*aligned",
        "partition_checksum": r"partition MODEL_DEF: checksum mismatch",
        "model_def_garbage": r"MODEL_DEF.*not a valid protobuf",
        "padding_nonzero": r"nonzero padding",
        "workspace_huge": r"workspace.*max-workspace-bytes",
        "stream_num_huge": r"stream",
        "stream_num_0": r"stream_num 0",
        "event_num_huge": r"event",
        "task_stream_out_of_range": r"task \d+: stream_id 7",
        "task_op_out_of_range": r"task \d+: op_index 100000",
        "task_event_out_of_range": r"task \d+: .*event.*5",
        "task_unknown_type": r"task \d+: unknown task type 42",
        "block_dim_0": r"task \d+: block_dim 0",
        "block_dim_huge": r"task \d+: block_dim 4294967295",
        "cost_huge": r"task \d+: cost of 1e\+300 flops, \d+ bytes outside 0\.\.1e18",
        "cost_infinite": r"task \d+: cost of .* inf bytes outside 0\.\.1e18",
        "no_graph": r"MODEL_DEF has 0",
        "duplicate_op_name": r"duplicate op name",
        "dangling_op_input": r"'ghost:0'",
        "unknown_op_type": r"NoSuchKernel",
        "desc_huge_shape": r"op \d+ '.*' \(Data\).*(overflow|max-tensor-bytes)",
        "desc_negative_dim": r"op \d+ '.*' \(Data\).*-4",
        "desc_bad_dtype": r"op \d+ '.*' \(Data\).*(type|dtype).*99",
        "weight_offset_outside": r"\(Const\).*weight",
        "placement_outside_workspace": r"workspace|offset",
        "unknown_soc": r"no-such-chip",
    }
    for om, pattern in bad.items():
        case(f"run-{om}", run + [f"{{gen}}/{om}.om"], pattern)
    for om in ("empty", "bad_magic", "partition_size_huge", "desc_huge_shape",
               "stream_num_huge", "model_def_garbage"):
        case(f"dump-{om}", ["dump", "-o", "{out}/d.txt", f"{{gen}}/{om}.om"], bad[om])
    case("run-missing-file", run + ["{gen}/no-such.om"], r"no-such\.om.*No such file")
    case("run-directory", run + ["{gen}"], r"gen.*not a regular file")
    case("dump-missing-file", ["dump", "{gen}/no-such.om"], r"no-such\.om")
    case("run-max-workspace-bytes", run + ["{gen}/good.om", "--max-workspace-bytes", "16"],
         r"good\.om: MEMORY plans a workspace of \d+ bytes, over the limit of 16 \(--max-workspace-bytes\)")
    case("run-max-model-bytes", run + ["{gen}/good.om", "--max-model-bytes", "100"],
         r"good\.om.*--max-model-bytes")
    case("run-max-nodes", run + ["{gen}/good.om", "--max-nodes", "2"],
         r"good\.om: the graph has \d+ ops, over the limit of 2 \(--max-nodes\)")
    case("run-max-tensor-bytes", run + ["{gen}/good.om", "--max-tensor-bytes", "8"],
         r"good\.om.*--max-tensor-bytes")
    for seed in range(1, 25):
        # The loader names the file; a kernel refusing its op names the model
        # ('good') and the node.
        case(f"run-tampered-{seed}", run + [f"{{gen}}/tampered_{seed}.om"],
             r"tampered_\d+\.om|^geflow: error: good: ", may_succeed=True)


def tensor_cases():
    run = ["run", "{gen}/good.om", "--output-dir", "{out}/outputs"]
    bad = {
        "x_truncated.npy": r"x_truncated\.npy.*bytes of data",
        "x_header_only.npy": r"x_header_only\.npy.*truncated",
        "x_bad_magic.npy": r"x_bad_magic\.npy.*bad magic",
        "x_empty.npy": r"x_empty\.npy.*bad magic",
        "x_wrong_shape.npy": r"input 'x': expected float32\[1,4\], given float32\[2,4\]",
        "x_wrong_dtype.npy": r"input 'x': expected float32\[1,4\], given int64\[1,4\]",
        "x_big_endian.npy": r"x_big_endian\.npy.*'>f4'",
        "x_fortran.npy": r"x_fortran\.npy.*Fortran",
        "x_no_shape.npy": r"x_no_shape\.npy.*'shape'",
        "x_negative_dim.npy": r"x_negative_dim\.npy.*'-1'",
        "x_huge_declared.npy": r"x_huge_declared\.npy.*(bytes of data|max-tensor-bytes)",
        "x_overflow_dims.npy": r"x_overflow_dims\.npy.*(overflow|max-tensor-bytes)",
        "x_dim_not_a_number.npy": r"x_dim_not_a_number\.npy.*dimension",
        "x_header_len_huge.npy": r"x_header_len_huge\.npy.*truncated",
        "x_wrong_dtype.pb": r"input 'x': expected float32\[1,4\], given int64\[1,4\]",
        "x_huge_dims.pb": r"x_huge_dims\.pb.*(bytes of data|max-tensor-bytes)",
        "x_overflow_dims.pb": r"x_overflow_dims\.pb.*(overflow|max-tensor-bytes)",
        "x_negative_dim.pb": r"x_negative_dim\.pb.*-4",
        "x_garbage.pb": r"x_garbage\.pb.*not an ONNX TensorProto",
        "x_truncated.pb": r"x_truncated\.pb.*not an ONNX TensorProto",
        "x_missing.npy": r"x_missing\.npy.*cannot read",
    }
    for f, pattern in bad.items():
        case(f"run-input-{f}", run + ["--input", f"x={{gen}}/{f}"], pattern)
    case("run-input-unknown-name", run + ["--input", "photo={gen}/x_good.npy"],
         r"no input named 'photo'")
    case("run-input-no-equals", run + ["--input", "{gen}/x_good.npy"], r"NAME=FILE")
    case("run-input-directory", run + ["--input", "x={gen}"], r"gen")
    case("run-output-dir-is-file", ["run", "{gen}/good.om", "--output-dir", "{out}/file"],
         r"file", setup={"file": "keep me"})
    case("run-output-dir-unwritable", ["run", "{gen}/good.om", "--output-dir", "/proc/geflow-out"],
         r"/proc/geflow-out")
    case("run-trace-unwritable", run + ["--trace", "/proc/geflow-trace.json"],
         r"/proc/geflow-trace\.json")
    case("run-trace-no-folder", run + ["--trace", "{out}/nodir/t.json"], r"nodir/t\.json")
    case("run-profile-is-file", run + ["--profile", "{out}/file"], r"file",
         setup={"file": "keep me"})
    case("run-expect-mismatch-writes-nothing",
         run + ["--input", "x={gen}/x_good.npy", "--expect", "y={gen}/x_good.npy",
                "--trace", "{out}/t.json", "--profile", "{out}/prof"],
         r"output 'y' differs")
    case("run-threads-0", run + ["--threads", "0"], r"--threads")
    case("dump-output-unwritable", ["dump", "{gen}/good.om", "-o", "/proc/geflow-dump.txt"],
         r"/proc/geflow-dump\.txt")
    case("dump-output-is-folder", ["dump", "{gen}/good.om", "-o", "{out}/dir"], r"dir",
         setup={"dir/": None})
    case("profile-missing-folder", ["profile", "{out}/nothing"], r"nothing")
    case("profile-garbage-summary", ["profile", "{out}/p"], r"summary\.json.*not valid JSON",
         setup={"p/": None, "p/summary.json": "{garbage"})
    case("profile-foreign-summary", ["profile", "{out}/p"], r"summary\.json.*not a geflow profile",
         setup={"p/": None, "p/summary.json": '{"format": "other"}'})
    case("profile-empty-folder", ["profile", "{out}/p"], r"summary\.json.*missing",
         setup={"p/": None})


def command_line_cases():
    """llvm::cl's own reports, each told in one line naming the command."""
    comp = ["compile", "{gen}/good.onnx", "-o", "{out}/m.om"]
    case("cli-unknown-option", comp + ["--fus"],
         r"^geflow: error: unknown option '--fus' for 'geflow compile' "
         r"\(did you mean '--no-fuse'\?\)$")
    case("cli-unknown-option-no-guess", comp + ["--frobnicate=3"],
         r"^geflow: error: unknown option '--frobnicate' for 'geflow compile'$")
    case("cli-unknown-option-top-level", ["--frobnicate"],
         r"^geflow: error: unknown option '--frobnicate' for 'geflow'$")
    case("cli-missing-value", comp + ["--soc"],
         r"^geflow: error: option '--soc' of 'geflow compile' needs a value$")
    case("cli-missing-value-and-model", ["run", "--input"],
         r"^geflow: error: option '--input' of 'geflow run' needs a value$")
    case("cli-bad-integer", comp + ["--max-streams", "two"],
         r"^geflow: error: invalid value 'two' for '--max-streams' of "
         r"'geflow compile': expected an integer >= 0$")
    case("cli-negative-integer", ["run", "{gen}/good.om", "--seed", "-5"],
         r"^geflow: error: invalid value '-5' for '--seed' of 'geflow run': "
         r"expected an integer >= 0$")
    case("cli-bad-number", ["run", "{gen}/good.om", "--rtol", "1e"],
         r"^geflow: error: invalid value '1e' for '--rtol' of 'geflow run': "
         r"expected a number$")
    case("cli-bad-boolean", comp + ["--no-memory-reuse=maybe"],
         r"^geflow: error: invalid value 'maybe' for '--no-memory-reuse' of "
         r"'geflow compile': expected true or false$")
    case("cli-bad-choice", comp + ["--streams", "many"],
         r"^geflow: error: invalid value 'many' for '--streams' of "
         r"'geflow compile' \(see 'geflow compile --help'\)$")
    case("cli-unknown-command", ["frob", "{gen}/good.onnx"],
         r"^geflow: error: unknown command 'frob' \(expected import, compile, "
         r"run, dump or profile\)$")
    case("cli-misspelt-command", ["compil", "{gen}/good.onnx"],
         r"^geflow: error: unknown command 'compil' \(did you mean 'compile'\?\)$")
    case("cli-no-model", ["compile"],
         r"^geflow: error: 'geflow compile' needs <model\.onnx>$")
    case("cli-two-models", ["compile", "{gen}/good.onnx", "{gen}/good.onnx"],
         r"^geflow: error: too many arguments for 'geflow compile' "
         r"\(it takes one <model\.onnx>\)$")
    case("cli-no-command", [], r"^geflow: error: no command given")


def damaged_copies(gen):
    """Truncations and bit flips of the good files, with fixed seeds."""
    for src, ext, cmd in (("good.onnx", "onnx", "compile"), ("good.om", "om", "run")):
        data = open(os.path.join(gen, src), "rb").read()
        for cut in (1, 8, 16, 64, len(data) // 2, len(data) - 1):
            name = f"cut{cut}_{src}"
            open(os.path.join(gen, name), "wb").write(data[:cut])
            args = ([cmd, "-o", "{out}/m.om"] if cmd == "compile"
                    else [cmd, "--output-dir", "{out}/o"])
            case(f"{cmd}-truncated-{cut}", args + ["{gen}/" + name],
                 re.escape(name) + ".*(truncated|not an|checksum)")
        for seed in range(1, 17):
            rng = random.Random(seed)
            b = bytearray(data)
            for _ in range(1 + seed % 3):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            name = f"flip{seed}_{src}"
            open(os.path.join(gen, name), "wb").write(bytes(b))
            args = ([cmd, "-o", "{out}/m.om"] if cmd == "compile"
                    else [cmd, "--output-dir", "{out}/o"])
            # A flipped weight leaves an ONNX model valid, and its errors
            # name the file, then the node or value hit; the OM checksums
            # catch every flip.
            case(f"{cmd}-bitflip-{seed}", args + ["{gen}/" + name],
                 in_model(name, ".") if ext == "onnx" else re.escape(name),
                 may_succeed=(ext == "onnx"))


def extra_cases(folder):
    for i, f in enumerate(sorted(os.listdir(folder))):
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            continue
        for cmd, args in (("import", ["import", "-o", "{out}/m.mlir"]),
                          ("compile", ["compile", "-o", "{out}/m.om"]),
                          ("run", ["run", "--output-dir", "{out}/o"]),
                          ("dump", ["dump", "-o", "{out}/d.txt"])):
            case(f"extra-{cmd}-{f}", args + [path], r".", may_succeed=True)


def write_text_inputs(gen):
    texts = {
        "empty.bin": "",
        "text.onnx": "this is not a model\n",
        "plan_core_limit.json": '{"scopes": [{"nodes": ["relu"], "limit_core_num": [999, 1]}]}\n',
        "plan_wrong_type.json": '{"scopes": [{"nodes": ["relu"], "stream_tag": "a", "priority": "high"}]}\n',
        "plan_unknown_tensor.json": '{"wait_tensor": [{"tensor": "ghost", "after": "r"}]}\n',
        "bad_soc.ini": "[SoCInfo]\nai_core_cnt=abc\n",
        "plan_syntax.json": '{"scopes": [{"nodes": ["relu"], \n',
        "plan_vector_limit.json": '{"scopes": [{"nodes": ["relu"], "limit_core_num": [1, 999]}]}\n',
    }
    for name, text in texts.items():
        open(os.path.join(gen, name), "w").write(text)


def listing(folder):
    result = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            result[os.path.relpath(os.path.join(root, d), folder) + "/"] = None
        for f in files:
            p = os.path.join(root, f)
            result[os.path.relpath(p, folder)] = open(p, "rb").read()
    return result


def run_case(c, geflow, gen, out_root):
    out = os.path.join(out_root, c["name"])
    os.makedirs(out)
    for rel, text in c["setup"].items():
        if rel.endswith("/"):
            os.makedirs(os.path.join(out, rel))
        else:
            open(os.path.join(out, rel), "w").write(text)
    before_out, before_gen = listing(out), set(os.listdir(gen))
    args = [a.replace("{gen}", gen).replace("{out}", out) for a in c["args"]]
    try:
        p = subprocess.run([geflow] + args, capture_output=True, timeout=TIMEOUT_S,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"hang: no exit within {TIMEOUT_S} s"
    err = p.stderr.decode("utf-8", "replace")
    left = [k for k in set(listing(out)) - set(before_out)]
    changed = [k for k, v in before_out.items() if listing(out).get(k, 0) != v]
    left += sorted(set(os.listdir(gen)) - before_gen)
    if p.returncode < 0:
        return f"killed by {signal.Signals(-p.returncode).name}: {err.strip()[:300]}"
    if p.returncode == 0 and c["may_succeed"]:
        shutil.rmtree(out)
        for f in set(os.listdir(gen)) - before_gen:
            os.remove(os.path.join(gen, f))
        return None
    problems = []
    if p.returncode != 1:
        problems.append(f"exit status {p.returncode}")
    lines = err.splitlines()
    if len(lines) != 1 or not err.endswith("\n"):
        problems.append(f"{len(lines)} lines on stderr")
    elif not lines[0].startswith("geflow: error: "):
        problems.append("the line does not start with 'geflow: error: '")
    elif not re.search(c["pattern"], lines[0]):
        problems.append(f"the line does not match /{c['pattern']}/")
    if left or changed:
        problems.append(f"left behind: {sorted(left + changed)}")
    if problems:
        return "; ".join(problems) + "\n    stderr: " + err.strip()[:600].replace("\n", "\n    ")
    return None


def make_good_model(maker, geflow, gen):
    """gen/good.onnx, the maker's good model, and gen/good.om built from it."""
    subprocess.run([maker, "onnx", gen], check=True)
    subprocess.run([geflow, "compile", os.path.join(gen, "good.onnx"), "-o",
                    os.path.join(gen, "good.om")], check=True, stdout=subprocess.DEVNULL)


def report(problems, summary):
    """Prints each (name, problem) with a problem and `summary` with the count
    that passed; returns the exit status."""
    failed = [(name, problem) for name, problem in problems if problem]
    for name, problem in failed:
        print(f"FAIL {name}: {problem}")
    print(summary.format(passed=len(problems) - len(failed), total=len(problems)))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--geflow", required=True)
    ap.add_argument("--maker", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--extra", default=os.environ.get("GEFLOW_BADINPUT_EXTRA"))
    ap.add_argument("-k", default="", help="run only cases whose name contains this")
    a = ap.parse_args()

    shutil.rmtree(a.work, ignore_errors=True)
    gen, out_root = os.path.join(a.work, "gen"), os.path.join(a.work, "out")
    os.makedirs(gen)
    os.makedirs(out_root)
    make_good_model(a.maker, a.geflow, gen)
    subprocess.run([a.maker, "om", os.path.join(gen, "good.om"), gen], check=True)
    subprocess.run([a.geflow, "compile", os.path.join(gen, "dynamic_batch.onnx"), "-o",
                    os.path.join(gen, "gears.om"), "--dynamic-batch-size", "1,2"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([a.maker, "om-gears", os.path.join(gen, "gears.om"), gen], check=True)
    subprocess.run([a.maker, "tensors", gen], check=True)
    write_text_inputs(gen)
    # The good files really are good, so every failure below is the damage's.
    subprocess.run([a.geflow, "run", os.path.join(gen, "good.om"), "--input",
                    "x=" + os.path.join(gen, "x_good.npy")], check=True,
                   stdout=subprocess.DEVNULL)

    onnx_cases()
    gear_cases()
    om_cases()
    tensor_cases()
    command_line_cases()
    damaged_copies(gen)
    if a.extra:
        extra_cases(a.extra)

    selected = [c for c in CASES if a.k in c["name"]]
    return report([(c["name"], run_case(c, a.geflow, gen, out_root)) for c in selected],
                  "bad-input suite: {passed} of {total} cases passed")


if __name__ == "__main__":
    sys.exit(main())
