#!/usr/bin/python3
"""Exports torchvision 0.14's ssdlite320_mobilenet_v3_large with random weights.

    /usr/bin/python3 export_detection_models.py OUT_DIR [--opset N] [--without-if]

Writes, in OUT_DIR:
  ssdlite320_mobilenet_v3_large.onnx         the whole detector, image in,
                                             boxes / scores / labels out (opset 17
                                             unless --opset; torchvision needs >= 11)
  ssdlite320_mobilenet_v3_large.input.npy    the image, float32 [1, 3, 320, 320]
  ssdlite320_mobilenet_v3_large.boxes.npy    torch's outputs for it: float32 [n, 4],
  ssdlite320_mobilenet_v3_large.scores.npy   float32 [n] (sorted, highest first) and
  ssdlite320_mobilenet_v3_large.labels.npy   int64 [n]
  ssdlite320_mobilenet_v3_large.unambiguous  how many leading detections have scores
                                             at least 1e-4 apart (relative): the ones
                                             a comparison with torch can hold exactly
  ssdlite320_mobilenet_v3_large.info.json    the graph's op histogram and its
                                             data-dependent / run-time-shape constructs
                                             (with --without-if: *_noif.onnx and
                                             *_noif.info.json, the same .npy files)

No downloads: weights=None, weights_backbone=None, seeded initialisation. An
untrained MobileNetV3 has BatchNorm statistics (mean 0, variance 1) that shrink
activations by about 1e-2 per block, so every score would be exactly 1/91; the
statistics are therefore recomputed on a few seeded random images, and the
classification head's last convolutions are scaled by 3, which leaves the
top ~90 scores distinct. Exits 77 (ctest's skip code) when torch or torchvision
cannot be imported.

The exported graph has one If: torchvision's batched NMS returns an empty
result for no boxes, scripted even when traced. --without-if exports
ssdlite320_mobilenet_v3_large_noif.onnx instead, whose NMS is the same
function without that test (the same outputs whenever a box passes the score
threshold, as for this image; ReduceMax of no boxes would be undefined).
"""
import collections
import json
import os
import sys
import time

SKIP = 77
NAME = "ssdlite320_mobilenet_v3_large"
HEAD_SCALE = 3.0
DISTINCT = 1e-4

# Operands that are shapes, counts or indices: (op type, input positions).
SHAPE_OPERANDS = {
    "Reshape": [1], "Expand": [1], "Tile": [1], "ConstantOfShape": [0],
    "Range": [0, 1, 2], "TopK": [1], "Slice": [1, 2, 3, 4],
    "Resize": [1, 2, 3], "Pad": [1, 2], "Split": [1], "Squeeze": [1],
    "Unsqueeze": [1], "OneHot": [1], "ReduceSum": [1],
}
DATA_DEPENDENT = {"NonZero", "NonMaxSuppression", "Unique", "Compress"}


def build_model(torch, detection):
    """The detector with seeded weights and recomputed BatchNorm statistics."""
    torch.manual_seed(0)
    model = detection.ssdlite320_mobilenet_v3_large(weights=None,
                                                    weights_backbone=None)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.momentum = None  # a plain average over the batches below
            module.reset_running_stats()
    model.train()
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(4):
            # Roughly what the model's own normalisation makes of an image.
            images = (torch.rand(2, 3, 320, 320, generator=gen) - 0.5) / 0.25
            model.head(list(model.backbone(images).values()))
    model.eval()
    with torch.no_grad():
        for block in model.head.classification_head.module_list:
            block[1].weight.mul_(HEAD_SCALE)
    return model


def batched_nms_without_if(torch, torchvision):
    """torchvision's _batched_nms_coordinate_trick without its test for no
    boxes (the If): boxes of different classes are moved apart so that one NMS
    never compares them."""

    def batched_nms(boxes, scores, idxs, iou_threshold):
        max_coordinate = boxes.max()
        offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
        return torchvision.ops.nms(boxes + offsets[:, None], scores,
                                   iou_threshold)

    return batched_nms


def walk(graph):
    """Every node of `graph` and of its subgraphs, subgraphs before the node
    that owns them (their values come first)."""
    for node in graph.node:
        for attr in node.attribute:
            for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                yield from walk(sub)
        yield node


def static_shapes(model, onnx):
    """Tensor name -> True when shape inference (with data propagation) gives
    it a fully static shape."""
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    static = {}

    def note(values):
        for v in values:
            t = v.type.tensor_type
            static[v.name] = t.HasField("shape") and all(
                d.HasField("dim_value") for d in t.shape.dim)

    def visit(graph):
        note(graph.input)
        note(graph.output)
        note(graph.value_info)
        for init in graph.initializer:
            static[init.name] = True
        for node in graph.node:
            for attr in node.attribute:
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    visit(sub)

    visit(inferred.graph)
    return static


def analyse(model, onnx):
    """Op histogram and the constructs whose sizes are known only at run time.

    A value is "known" when it is a constant or computed from constants and
    from the shapes of tensors whose shapes are static; a tensor's shape is
    static when its producer is not a data-dependent op, its inputs' shapes
    are static and its shape operands are known. Everything else waits for
    the run. ONNX's own shape inference (with data propagation) is counted
    beside this: it leaves more symbolic than this propagation does."""
    onnx_static = static_shapes(model, onnx)
    known = {init.name for init in model.graph.initializer}
    static = set(known) | {
        v.name for v in model.graph.input if onnx_static.get(v.name, False)}
    top = collections.Counter(n.op_type for n in model.graph.node)
    everywhere = collections.Counter()
    runtime_operands = collections.Counter()
    runtime_outputs = collections.Counter()
    onnx_runtime_outputs = 0
    gathers = collections.Counter()
    # How many stages a run-time-shape executor needs: a data-dependent op's
    # outputs, and a node whose shape operand is a run-time value, start a
    # stage after the one that produced their inputs.
    stage = collections.defaultdict(int)
    for node in walk(model.graph):
        everywhere[node.op_type] += 1
        inputs = [i for i in node.input if i]
        shape_operands = [node.input[p] for p in SHAPE_OPERANDS.get(node.op_type, [])
                          if p < len(node.input) and node.input[p]]
        for name in shape_operands:
            if name not in known:
                runtime_operands[f"{node.op_type} input {list(node.input).index(name)}"] += 1
        if node.op_type == "Constant":
            is_known, is_static = True, True
        elif node.op_type in ("Shape", "Size"):
            is_known, is_static = node.input[0] in static, True
        else:
            is_known = bool(inputs) and all(i in known for i in inputs)
            is_static = (node.op_type not in DATA_DEPENDENT
                         and all(i in static for i in inputs)
                         and all(i in known for i in shape_operands)
                         and (node.op_type != "If" or node.input[0] in known))
        first = max([stage[i] for i in inputs] +
                    [stage[i] + 1 for i in shape_operands if i not in known] +
                    [0])
        waits = node.op_type in DATA_DEPENDENT or (
            node.op_type == "If" and node.input[0] not in known)
        for o in node.output:
            stage[o] = first + (1 if waits else 0)
        if is_known:
            known.update(node.output)
        if is_static:
            static.update(node.output)
        else:
            runtime_outputs[node.op_type] += 1
        if any(o and not onnx_static.get(o, False) for o in node.output):
            onnx_runtime_outputs += 1
        if node.op_type in ("Gather", "GatherND", "GatherElements") and \
                node.input[1] not in static:
            gathers[node.op_type] += 1
    return {
        "nodes": sum(top.values()),
        "nodes_with_subgraphs": sum(everywhere.values()),
        "histogram": dict(top.most_common()),
        "histogram_with_subgraphs": dict(everywhere.most_common()),
        "data_dependent_ops": {k: everywhere[k] for k in sorted(DATA_DEPENDENT)
                               if everywhere[k]},
        "control_flow": {k: everywhere[k] for k in ("If", "Loop", "Scan")
                         if everywhere[k]},
        "runtime_shape_operands": dict(runtime_operands.most_common()),
        "gathers_of_runtime_sized_indices": dict(gathers),
        "nodes_with_runtime_output_shapes": dict(runtime_outputs.most_common()),
        "nodes_with_runtime_output_shapes_total": sum(runtime_outputs.values()),
        "nodes_onnx_inference_leaves_symbolic": onnx_runtime_outputs,
        "stages": 1 + max(stage.values(), default=0),
    }


def leading_distinct(scores):
    """How many leading scores (sorted, highest first) are at least DISTINCT
    apart, relative, from both neighbours."""
    n = len(scores)
    for i in range(n - 1):
        if scores[i] - scores[i + 1] < DISTINCT * abs(scores[i + 1]):
            return i
    return n


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir, rest = args[0], args[1:]
    opset, without_if = 17, "--without-if" in rest
    if without_if:
        rest.remove("--without-if")
    if len(rest) == 2 and rest[0] == "--opset" and rest[1].isdigit():
        opset = int(rest[1])
    elif rest:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import numpy as np
        import onnx
        import torch
        import torchvision
        from torchvision.models import detection
    except Exception as exc:  # ImportError, or a half-installed package
        print(f"skipping: cannot import torch/torchvision/onnx: {exc}",
              file=sys.stderr)
        return SKIP

    class Detector(torch.nn.Module):
        """A batch of one image in, the three outputs of that image out."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, images):
            out = self.model([images[0]])[0]
            return out["boxes"], out["scores"], out["labels"]

    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, NAME)
    model_path = base + ("_noif" if without_if else "") + ".onnx"
    detector = Detector(build_model(torch, detection)).eval()
    image = torch.rand(1, 3, 320, 320, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        start = time.time()
        boxes, scores, labels = detector(image)
        torch_seconds = time.time() - start
    np.save(base + ".input.npy", image.numpy())
    np.save(base + ".boxes.npy", boxes.numpy())
    np.save(base + ".scores.npy", scores.numpy())
    np.save(base + ".labels.npy", labels.numpy().astype(np.int64))
    unambiguous = leading_distinct(scores.numpy().tolist())
    with open(base + ".unambiguous", "w") as f:
        f.write(f"{unambiguous}\n")

    start = time.time()
    tmp = model_path + ".tmp"
    original_nms = torchvision.ops.boxes.batched_nms
    if without_if:
        torchvision.ops.boxes.batched_nms = batched_nms_without_if(
            torch, torchvision)
    try:
        with torch.no_grad():
            torch.onnx.export(detector, (image,), tmp, opset_version=opset,
                              input_names=["image"],
                              output_names=["boxes", "scores", "labels"])
    finally:
        torchvision.ops.boxes.batched_nms = original_nms
    export_seconds = time.time() - start
    model = onnx.load(tmp)
    onnx.checker.check_model(model)
    os.replace(tmp, model_path)

    info = {"model": os.path.basename(model_path), "opset": opset,
            "export_seconds": round(export_seconds, 1),
            "torch_seconds": round(torch_seconds, 2),
            "detections": int(scores.shape[0]),
            "unambiguous_detections": unambiguous}
    info.update(analyse(model, onnx))
    with open(model_path[:-len(".onnx")] + ".info.json", "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    print(f"{os.path.basename(model_path)}: opset {opset}, {info['nodes']} nodes "
          f"({info['nodes_with_subgraphs']} with subgraphs), exported in "
          f"{export_seconds:.1f} s; {info['detections']} detections, the first "
          f"{unambiguous} with distinct scores; details in "
          f"{model_path[:-len('.onnx')]}.info.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
