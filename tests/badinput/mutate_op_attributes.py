#!/usr/bin/python3
"""Malformed attributes, operands and inputs for each op, through the CLI.

For each ONNX op type named (default: every op type in the backend node tests
that geflow compiles), the node tests holding it are mutated one change at a
time: every attribute set to values out of its range or of the wrong kind or
removed, an unknown attribute added, an input dropped or repeated, an
input's element type changed. Each mutant is compiled, and what compiles is
run on seeded random inputs (random indices and sizes included). Every step
must either succeed or fail the way bad input must: exit status 1, one line
'geflow: error: ...' on stderr, and no output file left behind. A crash, a
hang, a multi-line error or a stray file is a finding.

  mutate_op_attributes.py --geflow BIN --work DIR [--ops A,B,...] [--per-op N]
                          [--mutants-per-op N]
"""
import argparse
import concurrent.futures
import copy
import os
import random
import shutil
import subprocess
import sys

import onnx
from onnx import AttributeProto, TensorProto

TIMEOUT_S = 60
NODE_TESTS = "/usr/share/libonnx-testdata/data/node"

INT_VALUES = [-(1 << 40), -1, 0, 1 << 40]
FLOAT_VALUES = [float("nan"), -1.0, 1e30]
OTHER_TYPES = [TensorProto.INT64, TensorProto.FLOAT, TensorProto.UINT8]


def attribute_mutants(attr):
    """(label, new attribute or None for removal) for one attribute."""
    yield f"drop {attr.name}", None
    if attr.type == AttributeProto.INT:
        for v in INT_VALUES:
            yield f"{attr.name}={v}", onnx.helper.make_attribute(attr.name, v)
    elif attr.type == AttributeProto.INTS:
        for v in ([], [INT_VALUES[0]], list(attr.ints) * 2, [-1] * (len(attr.ints) + 3)):
            yield f"{attr.name}={v}", onnx.helper.make_attribute(attr.name, v)
    elif attr.type == AttributeProto.FLOAT:
        for v in FLOAT_VALUES:
            yield f"{attr.name}={v}", onnx.helper.make_attribute(attr.name, v)
    elif attr.type == AttributeProto.FLOATS:
        yield f"{attr.name}=[]", onnx.helper.make_attribute(attr.name, [], AttributeProto.FLOATS)
    elif attr.type == AttributeProto.STRING:
        yield f"{attr.name}=bogus", onnx.helper.make_attribute(attr.name, "bogus")
    elif attr.type == AttributeProto.STRINGS:
        yield f"{attr.name}=[bogus]", onnx.helper.make_attribute(attr.name, ["bogus"] * 5)
    # Any attribute given a value of another kind.
    yield f"{attr.name} as string", onnx.helper.make_attribute(attr.name, "7")


def mutants(model, op_type):
    """(label, mutated model) for the first `op_type` node of `model`."""
    index = next(i for i, n in enumerate(model.graph.node) if n.op_type == op_type)
    node = model.graph.node[index]

    def with_node(change):
        m = copy.deepcopy(model)
        change(m.graph.node[index], m.graph)
        return m

    for k, attr in enumerate(node.attribute):
        for label, new in attribute_mutants(attr):
            def change(n, g, k=k, new=new):
                if new is None:
                    del n.attribute[k]
                else:
                    n.attribute[k].CopyFrom(new)
            yield label, with_node(change)
    yield "unknown attribute", with_node(
        lambda n, g: n.attribute.append(onnx.helper.make_attribute("bogus_attr", 1)))
    if len(node.input) > 0:
        yield "last input dropped", with_node(lambda n, g: n.input.pop())
        yield "first input repeated", with_node(lambda n, g: n.input.append(n.input[0]))
        yield "first input empty", with_node(lambda n, g: n.input.__setitem__(0, ""))
    for k, graph_input in enumerate(model.graph.input):
        for dtype in OTHER_TYPES:
            if graph_input.type.tensor_type.elem_type == dtype:
                continue
            def change(n, g, k=k, dtype=dtype):
                g.input[k].type.tensor_type.elem_type = dtype
            yield f"input {k} as {TensorProto.DataType.Name(dtype)}", with_node(change)


def check(cmd, out_path, label, findings):
    """Runs a geflow command; True when it succeeded, findings on misbehaviour."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        findings.append(f"{label}: hung over {TIMEOUT_S} s: {' '.join(cmd)}")
        return False
    if proc.returncode == 0:
        return True
    lines = proc.stderr.strip().splitlines()
    if proc.returncode != 1:
        findings.append(f"{label}: exit status {proc.returncode}: {' '.join(cmd)}\n"
                        + proc.stderr[-600:])
    elif len(lines) != 1 or not lines[0].startswith("geflow: error: "):
        findings.append(f"{label}: not one 'geflow: error:' line: {' '.join(cmd)}\n"
                        + proc.stderr[-600:])
    elif out_path and os.path.exists(out_path):
        findings.append(f"{label}: failed but left {out_path}")
    return False


def tests_by_op():
    found = {}
    for test in sorted(os.listdir(NODE_TESTS)):
        path = os.path.join(NODE_TESTS, test, "model.onnx")
        if not os.path.exists(path) or os.path.getsize(path) > 65536:
            continue
        for node in onnx.load(path).graph.node:
            found.setdefault(node.op_type, []).append(test)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--geflow", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--ops", help="comma-separated ONNX op types")
    parser.add_argument("--per-op", type=int, default=2, help="node tests per op")
    parser.add_argument("--mutants-per-op", type=int, default=0,
                        help="a seeded sample of this many mutants per op (0: all)")
    args = parser.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    by_op = tests_by_op()
    ops = args.ops.split(",") if args.ops else sorted(by_op)
    cases = []
    for op in ops:
        tests = list(dict.fromkeys(by_op.get(op, [])))[: args.per_op]
        if not tests:
            print(f"{op}: no node test holds it", file=sys.stderr)
            return 2
        op_cases = []
        for test in tests:
            model = onnx.load(os.path.join(NODE_TESTS, test, "model.onnx"))
            for label, mutant in mutants(model, op):
                op_cases.append((f"{test} [{label}]", mutant))
        if 0 < args.mutants_per_op < len(op_cases):
            op_cases = random.Random(op).sample(op_cases, args.mutants_per_op)
        cases += op_cases

    def run_case(k):
        name, mutant = cases[k]
        case_findings = []
        model_path = os.path.join(args.work, f"{k}.onnx")
        om_path = os.path.join(args.work, f"{k}.om")
        out_dir = os.path.join(args.work, f"{k}.out")
        onnx.save(mutant, model_path)
        compiled = check([args.geflow, "compile", model_path, "-o", om_path], om_path,
                         name, case_findings)
        if compiled:
            check([args.geflow, "run", om_path, "--output-dir", out_dir, "--threads", "1"],
                  None, name + " run", case_findings)
        for path in (model_path, om_path):
            if os.path.exists(path):
                os.remove(path)
        shutil.rmtree(out_dir, ignore_errors=True)
        return compiled, case_findings

    with concurrent.futures.ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as pool:
        results = list(pool.map(run_case, range(len(cases))))
    compiled = sum(1 for ok, _ in results if ok)
    findings = [f for _, fs in results for f in fs]
    for finding in findings:
        print("FINDING", finding)
    print(f"{len(cases)} mutants of {len(ops)} ops, {compiled} compiled and ran, "
          f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
