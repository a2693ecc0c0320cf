"""Writes the models and tensors of the atc tests into OUT_DIR.

classifier.onnx, also as resnet50.onnx and googlenet.onnx (the model names
of Huawei's ATC samples): data [1,3,224,224] -> conv1 (Conv 3->8, 3x3,
stride 4) -> relu1 -> pool (GlobalAveragePool) -> flatten -> fc (Gemm 8->10)
-> prob (Softmax): the shape of a Caffe classifier, input `data`, last node
`prob`. Only the graph output declares its type.
scale.onnx: x [5] -> scale (Mul by 100) -> y, for --output_type=UINT8.
aipp_probe.onnx: data [1,3,4,6] -> probe (Identity) -> features, to see what
an AIPP prologue makes of an image.

Tensors: data16.npy (float16 [1,3,224,224]) and data.npy (the same values
as float32), data2.npy (float32 [2,3,224,224]); scale_x.npy and
scale_u8.npy, the uint8 that --output_type=UINT8 makes of 100 * x.

AIPP cases, each aipp_<case>.cfg (an insert_op.cfg), aipp_<case>.image.npy
(the uint8 image) and aipp_<case>.expected.npy (what the model's input is
then, computed here pixel by pixel as Ascend's AIPP documentation has it):
  yuv_jpeg      YUV420SP_U8 4x6, CSC with the JPEG matrix, mean/min/var
  rgb_crop      RGB888_U8 8x10 cropped at (2, 4), R and B swapped, CSC to YUV
                with ATC's default matrix and output bias, var_reci 1/255
  yuv_defaults  YUV420SP_U8 8x10 cropped at (2, 2), U and V swapped, CSC with
                ATC's default YUV to BGR matrix and input bias
"""
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def classifier(rng):
    w1 = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    b1 = rng.standard_normal(8).astype(np.float32)
    w2 = rng.standard_normal((10, 8)).astype(np.float32)
    b2 = rng.standard_normal(10).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["data", "w1", "b1"], ["conv1_out"], name="conv1",
                         kernel_shape=[3, 3], strides=[4, 4], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv1_out"], ["relu1_out"], name="relu1"),
        helper.make_node("GlobalAveragePool", ["relu1_out"], ["pool_out"], name="pool"),
        helper.make_node("Flatten", ["pool_out"], ["flatten_out"], name="flatten"),
        helper.make_node("Gemm", ["flatten_out", "w2", "b2"], ["fc_out"], name="fc",
                         transB=1),
        helper.make_node("Softmax", ["fc_out"], ["prob"], name="prob", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "classifier",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
         numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")])
    return graph


def scale():
    nodes = [helper.make_node("Mul", ["x", "hundred"], ["y"], name="scale")]
    graph = helper.make_graph(
        nodes, "scale",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [5])],
        [numpy_helper.from_array(np.array(100, np.float32), "hundred")])
    return graph


def aipp_probe():
    nodes = [helper.make_node("Identity", ["data"], ["features"], name="probe")]
    return helper.make_graph(
        nodes, "aipp_probe",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 4, 6])],
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, [1, 3, 4, 6])])


# ATC's defaults when csc_switch is on and no matrix is given (GE's AIPP).
YUV_TO_BGR = [[298, 516, 0], [298, -100, -208], [298, 0, 409]]
RGB_TO_YUV = [[66, 129, 25], [-38, -74, 112], [112, -94, -18]]
JPEG = [[256, 0, 359], [256, -88, -183], [256, 454, 0]]
AIPP_CASES = {
    "yuv_jpeg": dict(input_format="YUV420SP_U8", src=(4, 6), csc_switch=True,
                     matrix=JPEG, input_bias=[0, 128, 128], mean=[104, 117, 123],
                     min=[0.5, 0.0, 0.0], var=[0.5, 1.0, 2.0]),
    "rgb_crop": dict(input_format="RGB888_U8", src=(8, 10), crop=(2, 4),
                     rbuv_swap_switch=True, csc_switch=True,
                     var=[1 / 255.0] * 3),
    "yuv_defaults": dict(input_format="YUV420SP_U8", src=(8, 10), crop=(2, 2),
                         rbuv_swap_switch=True, csc_switch=True),
}


def aipp_config(case):
    """The insert_op.cfg text of a case."""
    lines = ["aipp_mode : static", "related_input_rank : 0",
             f"input_format : {case['input_format']}",
             f"src_image_size_h : {case['src'][0]}",
             f"src_image_size_w : {case['src'][1]}"]
    for switch in ["csc_switch", "rbuv_swap_switch"]:
        lines.append(f"{switch} : {'true' if case.get(switch) else 'false'}")
    if "crop" in case:
        lines += ["crop : true", f"load_start_pos_h : {case['crop'][0]}",
                  f"load_start_pos_w : {case['crop'][1]}",
                  "crop_size_h : 4", "crop_size_w : 6"]
    for r, row in enumerate(case.get("matrix", [])):
        lines += [f"matrix_r{r}c{c} : {v}" for c, v in enumerate(row)]
    for name in ["input_bias", "mean", "min", "var"]:
        field = {"mean": "mean_chn", "min": "min_chn", "var": "var_reci_chn"}.get(name, name)
        lines += [f"{field}_{i} : {v}" for i, v in enumerate(case.get(name, []))]
    return "aipp_op {\n" + "".join(f"    {line}\n" for line in lines) + "}\n"


def aipp_reference(case, image):
    """The float NCHW tensor AIPP makes of a uint8 image, step by step."""
    yuv = case["input_format"] == "YUV420SP_U8"
    if yuv:  # NV12: the Y plane, then U and V interleaved at half resolution
        h = case["src"][0]
        y = image[:, :h, :, 0].astype(np.int64)
        uv = image[:, h:, :, 0].reshape(image.shape[0], h // 2, -1, 2)
        uv = uv.repeat(2, axis=1).repeat(2, axis=2).astype(np.int64)
        x = np.concatenate([y[..., None], uv], axis=3)
    else:
        x = image.astype(np.int64)
    if case.get("rbuv_swap_switch"):
        x = x[..., [0, 2, 1]] if yuv else x[..., [2, 1, 0]]
    if "crop" in case:
        top, left = case["crop"]
        x = x[:, top:top + 4, left:left + 6]
    if case.get("csc_switch"):
        m = np.array(case.get("matrix", YUV_TO_BGR if yuv else RGB_TO_YUV))
        if yuv:  # (M (x - input_bias)) >> 8
            x = ((x - np.array(case.get("input_bias", [16, 128, 128]))) @ m.T) >> 8
        else:  # (M x) >> 8 + output_bias
            x = ((x @ m.T) >> 8) + np.array([16, 128, 128])
        x = np.clip(x, 0, 255)
    offset = np.float32(np.array(case.get("mean", [0] * 3), np.float32) +
                        np.array(case.get("min", [0] * 3), np.float32))
    scale = np.array(case.get("var", [1.0] * 3), np.float32)
    x = (x.astype(np.float32) - offset) * scale
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def save_aipp_cases(out_dir, rng):
    for name, case in AIPP_CASES.items():
        h, w = case["src"]
        shape = (1, h * 3 // 2, w, 1) if case["input_format"] == "YUV420SP_U8" else (1, h, w, 3)
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        with open(f"{out_dir}/aipp_{name}.cfg", "w") as f:
            f.write(aipp_config(case))
        np.save(f"{out_dir}/aipp_{name}.image.npy", image)
        np.save(f"{out_dir}/aipp_{name}.expected.npy", aipp_reference(case, image))


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def main(out_dir):
    rng = np.random.default_rng(7)
    save(classifier(rng), f"{out_dir}/classifier.onnx")
    for name in ["resnet50", "googlenet"]:
        shutil.copy(f"{out_dir}/classifier.onnx", f"{out_dir}/{name}.onnx")
    save(scale(), f"{out_dir}/scale.onnx")
    save(aipp_probe(), f"{out_dir}/aipp_probe.onnx")
    save_aipp_cases(out_dir, rng)
    data16 = rng.standard_normal((1, 3, 224, 224)).astype(np.float16)
    np.save(f"{out_dir}/data16.npy", data16)
    np.save(f"{out_dir}/data.npy", data16.astype(np.float32))
    np.save(f"{out_dir}/data2.npy",
            rng.standard_normal((2, 3, 224, 224)).astype(np.float32))
    # 100 * x saturates at both ends; 2.5 rounds to the even 2.
    x = np.array([-1.0, 0.004, 1.5, 3.0, 0.025], np.float32)
    np.save(f"{out_dir}/scale_x.npy", x)
    np.save(f"{out_dir}/scale_u8.npy", np.array([0, 0, 150, 255, 2], np.uint8))


if __name__ == "__main__":
    main(sys.argv[1])
