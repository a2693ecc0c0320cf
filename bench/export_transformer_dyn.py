"""Writes OUT_DIR/transformer_encoder_dyn.onnx: torch's TransformerEncoder
(2 layers, d_model 64, 4 heads, sequence-first) with dynamic sequence and
batch axes, and OUT_DIR/transformer_encoder_dyn.x_S_B.npy inputs with
torch's .y_S_B.npy outputs for a few shapes. Random weights, seed 0."""
import os
import sys

import numpy as np
import torch


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    # Sequence-first: the layout without the fused fast path, which has no
    # ONNX export.
    model = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(64, 4, dim_feedforward=128,
                                         dropout=0.0),
        num_layers=2, enable_nested_tensor=False).eval()
    path = os.path.join(out, "transformer_encoder_dyn.onnx")
    with torch.no_grad():
        torch.onnx.export(model, torch.randn(16, 1, 64), path, opset_version=17,
                          input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "seq", 1: "batch"},
                                        "y": {0: "seq", 1: "batch"}})
        for seq, batch in ((16, 1), (32, 2), (7, 3)):
            x = torch.randn(seq, batch, 64)
            stem = os.path.join(out, "transformer_encoder_dyn")
            np.save(f"{stem}.x_{seq}_{batch}.npy", x.numpy())
            np.save(f"{stem}.y_{seq}_{batch}.npy", model(x).numpy())
    return 0


if __name__ == "__main__":
    sys.exit(main())
