#!/usr/bin/python3
"""Exports the real-model fixtures for geflow's import tests, with random weights.

    /usr/bin/python3 export_models.py OUT_DIR [NAME ...]

Writes OUT_DIR/<name>.onnx for torchvision ResNet-18, MobileNet v2, ShuffleNet v2
x0.5, GoogLeNet, SqueezeNet 1.1, a small nn.TransformerEncoder (2 layers, d_model 64, 4 heads,
seq 16, batch 1), and ShuffleNet v2 x0.5 again with a dynamic batch axis, and MobileNet v2 at opset 11,
two recurrent nets (lstm_tagger: token ids -> embedding -> 2-layer bidirectional LSTM -> linear;
gru_classifier: a batch-first GRU whose last step feeds a linear layer), and torchvision's
Swin-T and MaxViT-T at the smallest inputs they take (their ops came in
over several changes; no ctest runs them yet). Opset 17 with constant folding keeps the exports inside
the ge op list. Exits 77 (ctest's
skip code here) when torch or torchvision cannot be imported.

Beside each static model it writes <name>.input.npy, PyTorch's <name>.output.npy for
that input, and <name>.atol: 1e-3 of the output's largest magnitude, the tolerance
the run tests hold geflow to.
"""
import os
import sys

SKIP = 77


NAMES = ["resnet18", "mobilenet_v2", "shufflenet_v2_x0_5", "googlenet", "squeezenet1_1",
         "transformer_encoder", "shufflenet_v2_x0_5_dynamic", "mobilenet_v2_opset11",
         "lstm_tagger", "gru_classifier", "swin_t", "maxvit_t"]


def up_to_date(out_dir, wanted):
    """True when every requested export exists and is newer than this script."""
    script_time = os.path.getmtime(__file__)
    for name in (wanted or NAMES):
        for suffix in [".onnx"] + ([] if "dynamic" in name else [".output.npy"]):
            path = os.path.join(out_dir, name + suffix)
            if not os.path.exists(path) or os.path.getmtime(path) < script_time:
                return False
    return True


def import_torch():
    """(numpy, torch, torchvision.models), or None after saying why not."""
    try:
        import numpy as np
        import torch
        import torchvision.models as tvm
    except Exception as exc:  # ImportError, or a half-installed package
        print(f"skipping: cannot import torch/torchvision: {exc}", file=sys.stderr)
        return None
    return np, torch, tvm


def encoder_class(torch):
    """The small encoder: nn.TransformerEncoder (2 layers, d_model 64, 4 heads),
    sequence-first (the layout without the fused fast path, which has no ONNX
    export)."""

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(
                d_model=64, nhead=4, dim_feedforward=128, dropout=0.0)
            self.encoder = torch.nn.TransformerEncoder(
                layer, num_layers=2, enable_nested_tensor=False)

        def forward(self, x):
            return self.encoder(x)

    return Encoder


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    wanted = set(sys.argv[2:])
    if up_to_date(out_dir, wanted):
        print(f"models in {out_dir} are up to date")
        return 0
    modules = import_torch()
    if modules is None:
        return SKIP
    np, torch, tvm = modules
    torch.manual_seed(0)
    os.makedirs(out_dir, exist_ok=True)
    image = torch.randn(1, 3, 224, 224)
    Encoder = encoder_class(torch)

    class LstmTagger(torch.nn.Module):
        """A sequence tagger over token ids [T, batch]: embedding, a 2-layer
        bidirectional LSTM, a linear layer per step."""

        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(100, 32)
            self.lstm = torch.nn.LSTM(32, 48, num_layers=2, bidirectional=True)
            self.tag = torch.nn.Linear(96, 10)

        def forward(self, tokens):
            y, _ = self.lstm(self.embed(tokens))
            return self.tag(y)

    class GruClassifier(torch.nn.Module):
        """A batch-first GRU over [batch, T, 16]; its last step is classified."""

        def __init__(self):
            super().__init__()
            self.gru = torch.nn.GRU(16, 32, batch_first=True)
            self.head = torch.nn.Linear(32, 4)

        def forward(self, x):
            y, _ = self.gru(x)
            return self.head(y[:, -1])

    models = {
        "resnet18": (lambda: tvm.resnet18(), image, None),
        "mobilenet_v2": (lambda: tvm.mobilenet_v2(), image, None),
        "shufflenet_v2_x0_5": (lambda: tvm.shufflenet_v2_x0_5(), image, None),
        "googlenet": (lambda: tvm.googlenet(aux_logits=False, init_weights=True),
                      image, None),
        "squeezenet1_1": (lambda: tvm.squeezenet1_1(), image, None),
        "transformer_encoder": (Encoder, torch.randn(16, 1, 64), None),
        "shufflenet_v2_x0_5_dynamic": (
            lambda: tvm.shufflenet_v2_x0_5(), image,
            {"input": {0: "batch"}, "output": {0: "batch"}}),
        # An older opset, so the import goes through libonnx's version converter
        # with real-sized weights (Clip's min/max become inputs at opset 11).
        "mobilenet_v2_opset11": (lambda: tvm.mobilenet_v2(), image, None, 11),
        "lstm_tagger": (LstmTagger, torch.randint(0, 100, (12, 2)), None),
        "gru_classifier": (GruClassifier, torch.randn(3, 10, 16), None),
        # Swin pads each stage to its 7x7 windows, so 32x32 (one patch of the
        # last stage) is its smallest input; MaxViT partitions every stage into
        # 7x7 grids, which 224x224 is the smallest input to allow.
        "swin_t": (lambda: tvm.swin_t(), torch.randn(1, 3, 32, 32), None),
        "maxvit_t": (lambda: tvm.maxvit_t(), image, None),
    }
    assert sorted(models) == sorted(NAMES)
    for name, spec in models.items():
        make, example, dynamic_axes = spec[:3]
        opset = spec[3] if len(spec) > 3 else 17
        if wanted and name not in wanted:
            continue
        path = os.path.join(out_dir, name + ".onnx")
        model = make().eval()
        with torch.no_grad():
            torch.onnx.export(model, example, path, opset_version=opset,
                              do_constant_folding=True,
                              input_names=["input"], output_names=["output"],
                              dynamic_axes=dynamic_axes)
            if dynamic_axes is None:
                reference = model(example).numpy()
                stem = os.path.join(out_dir, name)
                np.save(stem + ".input.npy", example.numpy())
                np.save(stem + ".output.npy", reference)
                with open(stem + ".atol", "w") as f:
                    f.write(f"{1e-3 * float(np.abs(reference).max()):.9g}\n")
        print(f"exported {path} ({os.path.getsize(path) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
