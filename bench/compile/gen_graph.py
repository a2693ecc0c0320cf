#!/usr/bin/python3
"""Writes the synthetic lanes graph: compile time against graph size.

Four lanes of MatMul+Add+Relu blocks, mixed every 8 blocks by a Concat of the
lanes and a Split back into four; the input is split into the lanes first and
the lanes are concatenated into the output last. Every block has weights of
its own (DIM x DIM and DIM), so the file grows with the graph as a real one
does. The node count is approximate (whole mixing stages): about 98 nodes per
stage.

Usage: gen_graph.py --nodes N --opset {13,17} [--dim D] -o FILE.onnx
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

LANES = 4
BLOCKS_PER_STAGE = 8
NODES_PER_STAGE = LANES * BLOCKS_PER_STAGE * 3 + 2  # blocks, Concat, Split


def build(nodes, opset, dim):
    stages = max(1, round((nodes - 2) / NODES_PER_STAGE))
    rng = np.random.default_rng(20)
    graph_nodes, initializers = [], []
    # Small weights keep every activation in a sane range through any depth.
    scale = 1.0 / dim

    def weight(name, shape):
        data = (rng.standard_normal(shape) * scale).astype(np.float32)
        initializers.append(numpy_helper.from_array(data, name))
        return name

    def split(source, prefix):
        outs = [f"{prefix}_lane{lane}" for lane in range(LANES)]
        graph_nodes.append(
            helper.make_node("Split", [source], outs, name=f"{prefix}_split",
                             axis=1))
        return outs

    lanes = split("input", "s0_in")
    for stage in range(stages):
        for block in range(BLOCKS_PER_STAGE):
            for lane in range(LANES):
                p = f"s{stage}_b{block}_l{lane}"
                w = weight(f"{p}_w", (dim, dim))
                b = weight(f"{p}_b", (dim,))
                graph_nodes.append(helper.make_node(
                    "MatMul", [lanes[lane], w], [f"{p}_mm"], name=f"{p}_mm"))
                graph_nodes.append(helper.make_node(
                    "Add", [f"{p}_mm", b], [f"{p}_add"], name=f"{p}_add"))
                graph_nodes.append(helper.make_node(
                    "Relu", [f"{p}_add"], [f"{p}_relu"], name=f"{p}_relu"))
                lanes[lane] = f"{p}_relu"
        mixed = f"s{stage}_mix"
        graph_nodes.append(helper.make_node(
            "Concat", list(lanes), [mixed], name=f"{mixed}_concat", axis=1))
        if stage + 1 < stages:
            lanes = split(mixed, f"s{stage + 1}_in")
        else:
            graph_nodes.append(helper.make_node(
                "Identity", [mixed], ["output"], name="output_identity"))

    graph = helper.make_graph(
        graph_nodes, f"lanes_{nodes}",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                       [1, LANES * dim])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                       [1, LANES * dim])],
        initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_operatorsetid("", opset)],
        producer_name="geflow-gen-graph")
    model.ir_version = 7 if opset < 15 else 8
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--opset", type=int, choices=(13, 17), default=17)
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if args.nodes < NODES_PER_STAGE or args.dim < 1:
        sys.exit(f"error: --nodes must be >= {NODES_PER_STAGE}, --dim >= 1")
    model = build(args.nodes, args.opset, args.dim)
    onnx.checker.check_model(model)
    onnx.save(model, args.output)
    print(f"{args.output}: {len(model.graph.node)} nodes, opset {args.opset}")


if __name__ == "__main__":
    main()
