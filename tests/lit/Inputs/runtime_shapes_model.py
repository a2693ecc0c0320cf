"""Writes DIR/model.onnx, y = Reshape(Relu(x), shape) with x's batch symbolic
and the shape a graph input, and inputs and references for two shapes as
.npy files: the model `geflow compile` turns into a RUNTIME_SHAPES OM."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, save

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"]),
     helper.make_node("Reshape", ["r", "shape"], ["y"])],
    "reshape",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4]),
     helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
     os.path.join(out, "model.onnx"))
rng = np.random.default_rng(0)
for name, batch, shape in (("a", 2, [4, 2]), ("b", 3, [2, 6])):
    x = rng.standard_normal((batch, 4)).astype(np.float32)
    np.save(os.path.join(out, f"x_{name}.npy"), x)
    np.save(os.path.join(out, f"shape_{name}.npy"), np.array(shape, np.int64))
    np.save(os.path.join(out, f"y_{name}.npy"),
            np.maximum(x, 0).reshape(shape))
np.save(os.path.join(out, "x_rank3.npy"), np.zeros((1, 2, 4), np.float32))

# y = NonZero(x): a data-dependent output size, [1, count] of int64.
graph = helper.make_graph(
    [helper.make_node("NonZero", ["x"], ["y"])], "nonzero",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
    [helper.make_tensor_value_info("y", TensorProto.INT64, None)])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
     os.path.join(out, "nonzero.onnx"))
np.save(os.path.join(out, "nz_two.npy"), np.array([0, 3, 0, 4], np.float32))
np.save(os.path.join(out, "nz_two_y.npy"), np.array([[1, 3]], np.int64))
np.save(os.path.join(out, "nz_three.npy"), np.array([1, 3, 0, 4], np.float32))
