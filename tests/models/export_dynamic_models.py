#!/usr/bin/python3
"""Exports the fixtures of the gear tests (ATC's dynamic batch / dims), with random weights.

    /usr/bin/python3 export_dynamic_models.py OUT_DIR

Writes, with seeded random weights and nothing downloaded:
  resnet18_dynbatch.onnx: torchvision ResNet-18 with a dynamic batch axis on its input and
    output; resnet18_dynbatch.b{1,2,3,4}.input.npy and PyTorch's .b{N}.output.npy (batch 3
    is no gear of the tests' 1,2,4,8: it is for padding up to a gear);
  squeezenet1_1_dynimage.onnx: torchvision SqueezeNet 1.1 (its pooling is adaptive) with
    dynamic H and W; .s224.* at 1x3x224x224 and .s160.* at 1x3x160x160;
  transformer_encoder_dyn.onnx: the small nn.TransformerEncoder of export_models.py
    (sequence-first [seq, batch, 64]) with dynamic sequence and batch axes;
    .s16.input.npy / .s16.output.npy at seq 16 x batch 2 and .s32.* at seq 32 x batch 2.
Each model gets <name>.atol: 1e-3 of the largest output magnitude over its cases, as
export_models.py writes. Opset 17 with constant folding. Exits 77 (ctest's skip code here)
when torch or torchvision cannot be imported.
"""
import os
import sys

import export_models

SKIP = export_models.SKIP

RESNET_BATCHES = [1, 2, 3, 4]
IMAGE_SIZES = [224, 160]
ENCODER_SEQS = [16, 32]
ENCODER_BATCH = 2


def outputs(out_dir):
    """Every file this script writes."""
    names = ["resnet18_dynbatch.onnx", "resnet18_dynbatch.atol",
             "squeezenet1_1_dynimage.onnx", "squeezenet1_1_dynimage.atol",
             "transformer_encoder_dyn.onnx", "transformer_encoder_dyn.atol"]
    for b in RESNET_BATCHES:
        names += [f"resnet18_dynbatch.b{b}.input.npy", f"resnet18_dynbatch.b{b}.output.npy"]
    for s in IMAGE_SIZES:
        names += [f"squeezenet1_1_dynimage.s{s}.input.npy",
                  f"squeezenet1_1_dynimage.s{s}.output.npy"]
    for s in ENCODER_SEQS:
        names += [f"transformer_encoder_dyn.s{s}.input.npy",
                  f"transformer_encoder_dyn.s{s}.output.npy"]
    return [os.path.join(out_dir, n) for n in names]


def up_to_date(out_dir):
    """True when every file exists and is newer than this script."""
    script_time = os.path.getmtime(__file__)
    return all(os.path.exists(p) and os.path.getmtime(p) >= script_time
               for p in outputs(out_dir))


def export(torch, np, model, cases, path, dynamic_axes):
    """Exports `model` at the first case's input; saves every case's input and
    PyTorch output as <stem>.<tag>.{input,output}.npy and the .atol."""
    stem = path[:-len(".onnx")]
    with torch.no_grad():
        torch.onnx.export(model, cases[0][1], path, opset_version=17,
                          do_constant_folding=True,
                          input_names=["input"], output_names=["output"],
                          dynamic_axes=dynamic_axes)
        largest = 0.0
        for tag, example in cases:
            reference = model(example).numpy()
            np.save(f"{stem}.{tag}.input.npy", example.numpy())
            np.save(f"{stem}.{tag}.output.npy", reference)
            largest = max(largest, float(np.abs(reference).max()))
    with open(stem + ".atol", "w") as f:
        f.write(f"{1e-3 * largest:.9g}\n")
    print(f"exported {path} ({os.path.getsize(path) // 1024} KiB)")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    if up_to_date(out_dir):
        print(f"dynamic models in {out_dir} are up to date")
        return 0
    modules = export_models.import_torch()
    if modules is None:
        return SKIP
    np, torch, tvm = modules
    torch.manual_seed(0)
    os.makedirs(out_dir, exist_ok=True)

    resnet = tvm.resnet18().eval()
    export(torch, np, resnet,
           [(f"b{b}", torch.randn(b, 3, 224, 224)) for b in RESNET_BATCHES],
           os.path.join(out_dir, "resnet18_dynbatch.onnx"),
           {"input": {0: "batch"}, "output": {0: "batch"}})
    squeezenet = tvm.squeezenet1_1().eval()
    export(torch, np, squeezenet,
           [(f"s{s}", torch.randn(1, 3, s, s)) for s in IMAGE_SIZES],
           os.path.join(out_dir, "squeezenet1_1_dynimage.onnx"),
           {"input": {2: "height", 3: "width"}})
    encoder = export_models.encoder_class(torch)().eval()
    export(torch, np, encoder,
           [(f"s{s}", torch.randn(s, ENCODER_BATCH, 64)) for s in ENCODER_SEQS],
           os.path.join(out_dir, "transformer_encoder_dyn.onnx"),
           {"input": {0: "seq", 1: "batch"}, "output": {0: "seq", 1: "batch"}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
