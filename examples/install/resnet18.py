#!/usr/bin/env python3
"""Compiles an exported torchvision ResNet-18 with the installed module and
checks it against torch.

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 resnet18.py [DIR]

The model gets seeded random weights (nothing is downloaded), is exported to
DIR/resnet18.onnx, compiled with geflow.compile to DIR/resnet18.om and run
with geflow.InferenceSession. Exit 0 when the logits match torch within 1e-3.
"""
import os
import sys
import tempfile

import numpy as np
import torch
import torchvision

import geflow


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    onnx_path = os.path.join(folder, "resnet18.onnx")
    torch.onnx.export(model, x, onnx_path, input_names=["image"],
                      output_names=["logits"], opset_version=17)

    om_path = geflow.compile(onnx_path, os.path.join(folder, "resnet18.om"))
    session = geflow.InferenceSession(om_path)
    (logits,) = session.run(["logits"], {"image": x.numpy()})
    with torch.no_grad():
        expected = model(x).numpy()
    diff = float(np.abs(logits - expected).max())
    print(f"resnet18: geflow vs torch, max abs difference {diff:.2e}")
    return 0 if diff < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
