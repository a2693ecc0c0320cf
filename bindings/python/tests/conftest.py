"""Fixtures of the geflow module's pytest suite (bindings/python/tests).

ctest runs it with PYTHONPATH=build/python, GEFLOW_BIN (the geflow tool, for
the bitwise comparison with `geflow run`) and GEFLOW_MODELS (examples/models).
"""
import os

import numpy as np
import pytest

MODELS = os.environ.get(
    "GEFLOW_MODELS",
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "models"))


@pytest.fixture(scope="session")
def tiny_cnn():
    """The bundled model with its input and PyTorch's output for it."""
    return (os.path.join(MODELS, "tiny_cnn.onnx"),
            np.load(os.path.join(MODELS, "tiny_cnn.image.npy")),
            np.load(os.path.join(MODELS, "tiny_cnn.probs.npy")))


@pytest.fixture(scope="session")
def tiny_session(tiny_cnn):
    import geflow
    return geflow.InferenceSession(tiny_cnn[0])
