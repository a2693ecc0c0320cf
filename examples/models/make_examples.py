#!/usr/bin/python3
"""Regenerates the small example models bundled with geflow (Debian's python3-torch).

  tiny_cnn.onnx   Conv+BN+ReLU stem, two parallel branches joined by an Add (the shape
                  a multi-stream plan splits), global pooling, a view(N, -1) that exports
                  as a Shape->Gather->Unsqueeze->Concat->Reshape chain, Gemm, Softmax.
  tiny_cnn.image.npy, tiny_cnn.probs.npy
                  a fixed input and PyTorch's output for it: `make demo` checks
                  geflow's result against them.
"""
import os
import numpy as np
import torch
import torch.nn as nn


class TinyCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.expert = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                                    nn.Conv2d(16, 16, 3, padding=1))
        self.shared_expert = nn.Sequential(nn.Conv2d(16, 16, 1), nn.Sigmoid())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(self.expert(x) + self.shared_expert(x))
        x = self.pool(x)
        x = x.view(x.size(0), -1)
        return torch.softmax(self.head(x), dim=-1)


def main():
    torch.manual_seed(0)
    here = os.path.dirname(os.path.abspath(__file__))
    model = TinyCnn().eval()
    image = torch.randn(1, 3, 32, 32)
    torch.onnx.export(model, image, os.path.join(here, "tiny_cnn.onnx"),
                      input_names=["image"], output_names=["probs"], opset_version=13,
                      do_constant_folding=False)
    with torch.no_grad():
        probs = model(image)
    np.save(os.path.join(here, "tiny_cnn.image.npy"), image.numpy())
    np.save(os.path.join(here, "tiny_cnn.probs.npy"), probs.numpy())


if __name__ == "__main__":
    main()
