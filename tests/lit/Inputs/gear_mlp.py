"""Writes a tiny model with a symbolic batch axis, and inputs and numpy's
outputs for batches 1 to 5, into OUT_DIR: the gear tests of `geflow run`.

gear_mlp.onnx: x [N, 4] -> y = relu(x @ W + b) [N, 3], t = transpose(y) [3, N]
(t's batch axis is its last, so a padded run must cut it there).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(out_dir):
    rng = np.random.default_rng(16)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "W"], ["m"]),
            helper.make_node("Add", ["m", "b"], ["a"]),
            helper.make_node("Relu", ["a"], ["y"]),
            helper.make_node("Transpose", ["y"], ["t"], perm=[1, 0]),
        ],
        "gear_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3]),
            helper.make_tensor_value_info("t", TensorProto.FLOAT, [3, "N"]),
        ],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, f"{out_dir}/gear_mlp.onnx")
    for n in range(1, 6):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        y = np.maximum(x @ w + b, 0).astype(np.float32)
        np.save(f"{out_dir}/x{n}.npy", x)
        np.save(f"{out_dir}/y{n}.npy", y)
        np.save(f"{out_dir}/t{n}.npy", np.ascontiguousarray(y.T))
    np.save(f"{out_dir}/x2_int.npy", np.zeros((2, 4), np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
