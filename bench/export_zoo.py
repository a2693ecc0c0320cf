#!/usr/bin/python3
"""Exports the benchmark zoo: torchvision and torch models with seeded random weights.

    /usr/bin/python3 bench/export_zoo.py OUT_DIR [NAME ...]

Writes OUT_DIR/<name>.onnx (opset 17, constant folding, batch 1) with
<name>.input.npy and PyTorch's <name>.output.npy for that input, so a runner can
say whether its outputs agree. Models: resnet50, mobilenet_v3_large,
efficientnet_b0, densenet121, inception_v3 (299x299), convnext_tiny, vit_b_16,
regnet_y_400mf, resnext50_32x4d, lraspp_mobilenet_v3_large (segmentation, the
'out' map), r3d_18 (16 frames of 112x112), a BERT-style transformer encoder
(4 layers, d_model 256, 4 heads, 128 tokens) and a GPT-style decoder (4 layers,
d_model 512, 8 heads, causal, 64 tokens, vocabulary 4096). A model already
exported at its current revision (REVISIONS; <name>.revision beside it, none
meaning 1) is kept, whatever else changed in this script. Exits 77 when torch
or torchvision cannot be imported. Nothing is downloaded: every weight is
random.
"""
import os
import sys

SKIP = 77
# A model's export revision: bump it when its export changes, and only that
# model is exported again (a zoo folder may be shared by several checkouts).
REVISIONS = {"vit_b_16": 2}  # 2: a random head, not torchvision's zeros


def exported_revision(stem):
    try:
        with open(stem + ".revision") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 1


def vit_with_random_head(tvm, torch):
    """ViT-B/16 with a random head: torchvision zero-initializes it, and an
    all-zero output would check nothing of the encoder."""
    model = tvm.vit_b_16()
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    return model


def vision(tvm, torch):
    image = torch.randn(1, 3, 224, 224)
    return {
        "resnet50": (lambda: tvm.resnet50(), image),
        "mobilenet_v3_large": (lambda: tvm.mobilenet_v3_large(), image),
        "efficientnet_b0": (lambda: tvm.efficientnet_b0(), image),
        "densenet121": (lambda: tvm.densenet121(), image),
        "inception_v3": (lambda: tvm.inception_v3(aux_logits=False, init_weights=True),
                         torch.randn(1, 3, 299, 299)),
        "convnext_tiny": (lambda: tvm.convnext_tiny(), image),
        "vit_b_16": (lambda: vit_with_random_head(tvm, torch), image),
        "regnet_y_400mf": (lambda: tvm.regnet_y_400mf(), image),
        "resnext50_32x4d": (lambda: tvm.resnext50_32x4d(), image),
    }


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    wanted = set(sys.argv[2:])
    try:
        import numpy as np
        import torch
        import torchvision
    except ImportError as e:
        print(f"skipped: {e}", file=sys.stderr)
        return SKIP
    tvm = torchvision.models

    class Segmentation(torch.nn.Module):
        """LR-ASPP on MobileNet v3: the 'out' map alone (torchvision returns a dict)."""

        def __init__(self):
            super().__init__()
            self.net = torchvision.models.segmentation.lraspp_mobilenet_v3_large(
                weights=None, weights_backbone=None)

        def forward(self, x):
            return self.net(x)["out"]

    class Encoder(torch.nn.Module):
        """A BERT-style encoder over [1, 128, 256] embeddings."""

        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(
                256, 4, dim_feedforward=1024, batch_first=True, activation="gelu")
            self.encoder = torch.nn.TransformerEncoder(layer, 4)

        def forward(self, x):
            return self.encoder(x)

    class Decoder(torch.nn.Module):
        """A GPT-style decoder over token ids [1, 64]: embeddings, causal
        self-attention blocks (pre-norm, GELU), logits over the vocabulary."""

        def __init__(self, vocab=4096, d=512, heads=8, layers=4, seq=64):
            super().__init__()
            self.tok = torch.nn.Embedding(vocab, d)
            self.pos = torch.nn.Parameter(torch.randn(1, seq, d) * 0.02)
            layer = torch.nn.TransformerEncoderLayer(
                d, heads, dim_feedforward=4 * d, batch_first=True,
                activation="gelu", norm_first=True)
            self.blocks = torch.nn.TransformerEncoder(layer, layers)
            self.norm = torch.nn.LayerNorm(d)
            self.head = torch.nn.Linear(d, vocab, bias=False)
            self.register_buffer(
                "mask", torch.triu(torch.full((seq, seq), float("-inf")), 1))

        def forward(self, tokens):
            x = self.tok(tokens) + self.pos
            return self.head(self.norm(self.blocks(x, mask=self.mask)))

    models = vision(tvm, torch)
    models["lraspp_mobilenet_v3_large"] = (Segmentation, torch.randn(1, 3, 224, 224))
    models["r3d_18"] = (lambda: tvm.video.r3d_18(), torch.randn(1, 3, 16, 112, 112))
    models["bert_encoder"] = (Encoder, torch.randn(1, 128, 256))
    models["gpt_decoder"] = (Decoder, torch.randint(0, 4096, (1, 64)))

    os.makedirs(out_dir, exist_ok=True)
    for name, (make, example) in models.items():
        if wanted and name not in wanted:
            continue
        path = os.path.join(out_dir, name + ".onnx")
        stem = os.path.join(out_dir, name)
        revision = REVISIONS.get(name, 1)
        if (os.path.exists(path) and os.path.exists(stem + ".output.npy")
                and exported_revision(stem) == revision):
            continue
        torch.manual_seed(0)
        model = make().eval()
        with torch.no_grad():
            reference = model(example).numpy()
        # Exported with gradients on: under no_grad, torch's attention
        # layers take a fused fast path that has no ONNX export.
        torch.onnx.export(model, example, path, opset_version=17,
                          do_constant_folding=True,
                          input_names=["input"], output_names=["output"])
        np.save(stem + ".input.npy", example.numpy())
        np.save(stem + ".output.npy", reference)
        with open(stem + ".revision", "w") as f:
            f.write(f"{revision}\n")
        print(f"exported {path} ({os.path.getsize(path) // 1024} KiB)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
