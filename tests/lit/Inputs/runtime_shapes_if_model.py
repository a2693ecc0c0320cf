"""Writes DIR/model.onnx, an If whose condition a stage computes and whose
branches read outer-scope tensors (one through a NonZero), and inputs and
numpy references taking each branch (and DIR/bad_cond.onnx, whose condition
is x > 0, one bool per element; DIR/const_cond.onnx, whose condition is an
initializer, false):

    cond = ReduceSum(x) > 0
    o = If(cond) then x[x > 0] * w (w an initializer) else -x
    y = o + 1
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
then_branch = helper.make_graph(
    [helper.make_node("Greater", ["x", "zero"], ["positive"]),
     helper.make_node("NonZero", ["positive"], ["where"]),
     helper.make_node("Reshape", ["where", "flat"], ["index"]),
     helper.make_node("Gather", ["x", "index"], ["picked"]),
     helper.make_node("Mul", ["picked", "w"], ["then_out"])],
    "then", [], [helper.make_tensor_value_info("then_out", TensorProto.FLOAT,
                                               ["K"])],
    [numpy_helper.from_array(np.array([-1], np.int64), "flat")])
else_branch = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["else_out"])], "else", [],
    [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, ["N"])])
graph = helper.make_graph(
    [helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
     helper.make_node("Greater", ["sum", "zero"], ["cond"]),
     helper.make_node("If", ["cond"], ["o"], then_branch=then_branch,
                      else_branch=else_branch),
     helper.make_node("Add", ["o", "one"], ["y"])],
    "if_model",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    [numpy_helper.from_array(np.array(0, np.float32), "zero"),
     numpy_helper.from_array(np.array(1, np.float32), "one"),
     numpy_helper.from_array(np.array([2], np.float32), "w")])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
     os.path.join(out, "model.onnx"))
del graph.node[0]
graph.node[0].input[0] = "x"
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
     os.path.join(out, "bad_cond.onnx"))
for name, x in (("then", [1, -2, 3, 0.5]), ("else", [-1, -2, 0.5])):
    x = np.array(x, np.float32)
    np.save(os.path.join(out, f"x_{name}.npy"), x)
    o = x[x > 0] * 2 if x.sum() > 0 else -x
    np.save(os.path.join(out, f"y_{name}.npy"), o + 1)
del graph.node[0]
graph.node[0].input[0] = "const_cond"
graph.initializer.append(numpy_helper.from_array(np.array(False), "const_cond"))
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
     os.path.join(out, "const_cond.onnx"))
