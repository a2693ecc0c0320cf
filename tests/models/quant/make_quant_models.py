#!/usr/bin/env python3
"""Builds two small int8 CNNs with onnx.helper and their expected outputs.

    make_quant_models.py OUT_DIR

The same network (conv 3->8 3x3, ReLU, conv 8->4 3x3 stride 2, flatten,
matmul 100->10) in the two forms quantized models come in:

- quant_qdq: float ops between DequantizeLinear and QuantizeLinear (QDQ
  form: what quantization toolkits export); per-channel conv weights, one
  float bias and one int32 bias in QDQ form, a per-tensor matmul weight.
  geflow's ge-fold-qdq must turn each conv and the matmul into the
  quantized cube op. Output: the uint8 result of the last QuantizeLinear.
- quant_qop: QuantizeLinear, QLinearConv, QLinearConv, Reshape,
  QLinearMatMul, DequantizeLinear (operator form, no ReLU). Output: float.

Scales are calibrated on the float network. The expected outputs are
computed here with numpy in the quantized ops' integer arithmetic (int32
accumulation, requantization by x_scale * w_scale / y_scale in float32,
rounding halves to even), so geflow must agree within one quantization
step. Writes NAME.onnx, NAME.input.npy, NAME.output.npy and NAME.atol.
Seeded: the same files every run.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(20261201)
X_SHAPE = (1, 3, 10, 10)


# --- quantized arithmetic (numpy reference) ---------------------------------

def quantize(x, scale, zp, dtype):
    info = np.iinfo(dtype)
    q = np.rint(np.asarray(x, np.float32) / np.float32(scale)) + zp
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zp):
    return ((q.astype(np.int32) - zp).astype(np.float32) *
            np.float32(scale)).astype(np.float32)


def conv_int(xq, xzp, wq, wzp, stride, pad):
    """int32 conv of (x - xzp) and (w - wzp); padding holds the zero point."""
    x = np.pad(xq.astype(np.int64) - xzp, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    w = wq.astype(np.int64) - wzp
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y


def requantize(acc, multiplier, zp, dtype):
    info = np.iinfo(dtype)
    v = np.rint(acc.astype(np.float64) * multiplier.astype(np.float64)) + zp
    return np.clip(v, info.min, info.max).astype(dtype)


def multiplier(xs, ws, ys):
    return (np.float32(xs) * np.asarray(ws, np.float32)) / np.float32(ys)


def range_params(values):
    """uint8 scale and zero point covering values and 0."""
    lo, hi = min(0.0, float(values.min())), max(0.0, float(values.max()))
    scale = np.float32((hi - lo) / 255.0 or 1.0)
    return scale, int(np.clip(np.rint(-lo / scale), 0, 255))


# --- the network -------------------------------------------------------------

def make_params():
    x = RNG.uniform(-1, 1, X_SHAPE).astype(np.float32)
    w1 = RNG.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32)
    b1 = RNG.normal(0, 0.1, 8).astype(np.float32)
    w2 = RNG.normal(0, 0.2, (4, 8, 3, 3)).astype(np.float32)
    b2 = RNG.normal(0, 0.1, 4).astype(np.float32)
    w3 = RNG.normal(0, 0.1, (100, 10)).astype(np.float32)
    p = {"x": x}
    # Weights: int8, symmetric, per output channel for the convs.
    p["ws1"] = (np.abs(w1).reshape(8, -1).max(1) / 127).astype(np.float32)
    p["wq1"] = quantize(w1, p["ws1"][:, None, None, None], 0, np.int8)
    p["ws2"] = (np.abs(w2).reshape(4, -1).max(1) / 127).astype(np.float32)
    p["wq2"] = quantize(w2, p["ws2"][:, None, None, None], 0, np.int8)
    p["ws3"] = np.float32(np.abs(w3).max() / 120)
    p["wz3"] = np.int8(3)
    p["wq3"] = quantize(w3, p["ws3"], 3, np.int8)
    p["b1"], p["b2"] = b1, b2
    # Activations: uint8, calibrated on the float network.
    p["xs"], p["xz"] = range_params(x)
    f1 = float_conv(dequantize(quantize(x, p["xs"], p["xz"], np.uint8), p["xs"], p["xz"]),
                    dequantize(p["wq1"], p["ws1"][:, None, None, None], 0), b1, 1, 1)
    p["s1"], p["z1"] = range_params(f1)
    f2 = float_conv(np.maximum(f1, 0), dequantize(p["wq2"], p["ws2"][:, None, None, None], 0),
                    b2, 2, 1)
    p["s2"], p["z2"] = range_params(f2)
    f3 = f2.reshape(1, 100) @ dequantize(p["wq3"], p["ws3"], 3)
    p["s3"], p["z3"] = range_params(f3)
    return p


def float_conv(x, w, b, stride, pad):
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    m, _, kh, kw = w.shape
    oh = (xp.shape[2] - kh) // stride + 1
    ow = (xp.shape[3] - kw) // stride + 1
    y = np.zeros((x.shape[0], m, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return (y + b[None, :, None, None]).astype(np.float32)


def int_bias(b, xs, ws):
    return np.rint(b / (np.float32(xs) * ws)).astype(np.int32)


def reference(p, relu):
    """The uint8 output of the matmul, in the quantized ops' arithmetic."""
    xq = quantize(p["x"], p["xs"], p["xz"], np.uint8)
    acc1 = conv_int(xq, p["xz"], p["wq1"], 0, 1, 1) + int_bias(p["b1"], p["xs"], p["ws1"])[None, :, None, None]
    y1 = requantize(acc1, multiplier(p["xs"], p["ws1"], p["s1"])[None, :, None, None], p["z1"], np.uint8)
    if relu:  # dq -> relu -> q at one scale: max(q, zero point)
        y1 = np.maximum(y1, np.uint8(p["z1"]))
    acc2 = conv_int(y1, p["z1"], p["wq2"], 0, 2, 1) + int_bias(p["b2"], p["s1"], p["ws2"])[None, :, None, None]
    y2 = requantize(acc2, multiplier(p["s1"], p["ws2"], p["s2"])[None, :, None, None], p["z2"], np.uint8)
    acc3 = (y2.reshape(1, 100).astype(np.int64) - p["z2"]) @ (p["wq3"].astype(np.int64) - 3)
    return requantize(acc3, multiplier(p["s2"], p["ws3"], p["s3"]), p["z3"], np.uint8)


# --- ONNX graphs -----------------------------------------------------------

class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, value, dtype=None):
        arr = np.asarray(value, dtype) if dtype else np.asarray(value)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def node(self, op, inputs, output, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def q(self, x, s, z, out):
        return self.node("QuantizeLinear", [x, s, z], out)

    def dq(self, x, s, z, out, **attrs):
        return self.node("DequantizeLinear", [x, s, z] if z else [x, s], out, **attrs)

    def model(self, name, out_type, out_shape):
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info("input", TensorProto.FLOAT, list(X_SHAPE))],
            [helper.make_tensor_value_info("output", out_type, out_shape)],
            self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(m)
        return m


def act_params(g, p, tag):
    s = g.const(f"s_{tag}", p[f"s{tag}"], np.float32)
    z = g.const(f"z_{tag}", p[f"z{tag}"], np.uint8)
    return s, z


def qdq_model(p):
    g = Graph()
    xs, xz = g.const("xs", p["xs"], np.float32), g.const("xz", p["xz"], np.uint8)
    s1, z1 = act_params(g, p, "1")
    s2, z2 = act_params(g, p, "2")
    s3, z3 = act_params(g, p, "3")
    g.dq(g.q("input", xs, xz, "x_q"), xs, xz, "x_dq")
    w1 = g.dq(g.const("wq1", p["wq1"]), g.const("ws1", p["ws1"]), None, "w1", axis=0)
    g.node("Conv", ["x_dq", w1, g.const("b1", p["b1"])], "conv1", pads=[1, 1, 1, 1])
    g.dq(g.q("conv1", s1, z1, "conv1_q"), s1, z1, "conv1_dq")
    g.dq(g.q(g.node("Relu", ["conv1_dq"], "relu1"), s1, z1, "relu1_q"), s1, z1, "relu1_dq")
    w2 = g.dq(g.const("wq2", p["wq2"]), g.const("ws2", p["ws2"]), None, "w2", axis=0)
    bs2 = (np.float32(p["s1"]) * p["ws2"]).astype(np.float32)
    b2 = g.dq(g.const("bq2", int_bias(p["b2"], p["s1"], p["ws2"])), g.const("bs2", bs2), None, "b2",
              axis=0)
    g.node("Conv", ["relu1_dq", w2, b2], "conv2", pads=[1, 1, 1, 1], strides=[2, 2])
    g.dq(g.q("conv2", s2, z2, "conv2_q"), s2, z2, "conv2_dq")
    g.node("Flatten", ["conv2_dq"], "flat")
    g.dq(g.q("flat", s2, z2, "flat_q"), s2, z2, "flat_dq")
    w3 = g.dq(g.const("wq3", p["wq3"]), g.const("ws3", p["ws3"], np.float32),
              g.const("wz3", p["wz3"], np.int8), "w3")
    g.node("MatMul", ["flat_dq", w3], "fc")
    g.q("fc", s3, z3, "output")
    return g.model("quant_qdq", TensorProto.UINT8, [1, 10])


def qop_model(p):
    g = Graph()
    xs, xz = g.const("xs", p["xs"], np.float32), g.const("xz", p["xz"], np.uint8)
    s1, z1 = act_params(g, p, "1")
    s2, z2 = act_params(g, p, "2")
    s3, z3 = act_params(g, p, "3")
    zero8 = g.const("zero8", 0, np.int8)
    g.q("input", xs, xz, "x_q")
    g.node("QLinearConv", ["x_q", xs, xz, g.const("wq1", p["wq1"]), g.const("ws1", p["ws1"]),
                           zero8, s1, z1, g.const("b1", int_bias(p["b1"], p["xs"], p["ws1"]))],
           "conv1", pads=[1, 1, 1, 1])
    g.node("QLinearConv", ["conv1", s1, z1, g.const("wq2", p["wq2"]), g.const("ws2", p["ws2"]),
                           zero8, s2, z2, g.const("b2", int_bias(p["b2"], p["s1"], p["ws2"]))],
           "conv2", pads=[1, 1, 1, 1], strides=[2, 2])
    g.node("Reshape", ["conv2", g.const("flat_shape", [1, 100], np.int64)], "flat")
    g.node("QLinearMatMul", ["flat", s2, z2, g.const("wq3", p["wq3"]),
                             g.const("ws3", p["ws3"], np.float32),
                             g.const("wz3", p["wz3"], np.int8), s3, z3], "fc")
    g.dq("fc", s3, z3, "output")
    return g.model("quant_qop", TensorProto.FLOAT, [1, 10])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    p = make_params()
    cases = {
        "quant_qdq": (qdq_model(p), reference(p, relu=True), 1.0),
        "quant_qop": (qop_model(p), dequantize(reference(p, relu=False), p["s3"], p["z3"]),
                      float(p["s3"]) * 1.001),
    }
    for name, (model, expected, atol) in cases.items():
        onnx.save(model, os.path.join(out, name + ".onnx"))
        np.save(os.path.join(out, name + ".input.npy"), p["x"])
        np.save(os.path.join(out, name + ".output.npy"), expected)
        with open(os.path.join(out, name + ".atol"), "w") as f:
            f.write(f"{atol}\n")


if __name__ == "__main__":
    main()
