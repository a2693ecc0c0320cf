#!/usr/bin/python3
"""Writes OUT_DIR/classifier.onnx: a small ResNet-style image classifier whose
batch dimension is free, the shape of ATC's dynamic-batch samples.

  data [batch, 3, 224, 224] -> prob [batch, 10] (softmax over 10 classes)

A 3x3 stride-2 stem with BatchNorm and ReLU, a 2x2 max pool (56x56), three
residual stages of two 3x3 convs each (16, 32 and 64 channels, the last two
halving H and W, with a 1x1 projection on their shortcut), global average
pooling, a linear layer and a softmax: about 45M multiply-adds per image.

Usage: export_classifier.py OUT_DIR
Seeded random weights (BatchNorm statistics included), nothing downloaded.
Also writes, for each batch B of BATCHES, OUT_DIR/classifier.b<B>.data.npy (a
seeded input) and OUT_DIR/classifier.b<B>.prob.npy (torch's output for it).
Batch 3 is no gear of the build's 1,2,4: it is for padding up to a gear.
"""
import os
import sys

import numpy as np
import torch
from torch import nn

BATCHES = [1, 2, 3, 4]
IMAGE = 224
CLASSES = 10


class ResidualStage(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Identity()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + self.shortcut(x))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.stages = nn.Sequential(ResidualStage(16, 16, 1),
                                    ResidualStage(16, 32, 2),
                                    ResidualStage(32, 64, 2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, CLASSES)

    def forward(self, data):
        x = self.pool(self.stages(self.stem(data)))
        return torch.softmax(self.fc(torch.flatten(x, 1)), dim=1)


def seeded_model():
    torch.manual_seed(0)
    model = Classifier()
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):  # statistics a trained net has
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 1.5)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.2, 0.2)
    # Logits spread over a few units: a confident softmax, whose errors show.
    model.fc.weight.data.normal_(0.0, 1.0)
    return model.eval()


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    model = seeded_model()
    rng = np.random.default_rng(0)
    with torch.no_grad():
        example = torch.zeros(2, 3, IMAGE, IMAGE)
        torch.onnx.export(model, example, os.path.join(out_dir, "classifier.onnx"),
                          input_names=["data"], output_names=["prob"],
                          dynamic_axes={"data": {0: "batch"}, "prob": {0: "batch"}},
                          opset_version=17, do_constant_folding=True)
        for batch in BATCHES:
            # Each image its own contrast and brightness, so that images
            # mixed up within a batch show in the outputs.
            scale = rng.uniform(0.5, 2.0, (batch, 1, 1, 1))
            offset = rng.uniform(-1.0, 1.0, (batch, 1, 1, 1))
            data = (rng.standard_normal((batch, 3, IMAGE, IMAGE)) * scale +
                    offset).astype(np.float32)
            prob = model(torch.from_numpy(data)).numpy()
            np.save(os.path.join(out_dir, f"classifier.b{batch}.data.npy"), data)
            np.save(os.path.join(out_dir, f"classifier.b{batch}.prob.npy"), prob)
    return 0


if __name__ == "__main__":
    sys.exit(main())
