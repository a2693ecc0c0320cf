"""geflow.compile and InferenceSession against torch, and against `geflow run`."""
import os
import pathlib
import subprocess

import numpy as np
import pytest
import torch
import torch.nn as nn

import geflow


def test_bundled_model_matches_torch(tiny_cnn, tiny_session):
    _, image, probs = tiny_cnn
    inputs, outputs = tiny_session.get_inputs(), tiny_session.get_outputs()
    assert [(i.name, i.shape, i.type) for i in inputs] == \
        [("image", [1, 3, 32, 32], "tensor(float)")]
    assert [(o.name, o.shape, o.type) for o in outputs] == \
        [("probs", [1, 10], "tensor(float)")]
    (result,) = tiny_session.run(None, {"image": image})
    assert result.dtype == np.float32 and result.shape == (1, 10)
    np.testing.assert_allclose(result, probs, atol=1e-5)
    # Asked by name, as ONNX Runtime takes them.
    (named,) = tiny_session.run(["probs"], {"image": image})
    np.testing.assert_array_equal(named, result)


class SmallNet(nn.Module):
    """Conv-BN-ReLU, a residual block, pooling and a linear head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8))
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(x + self.block(x))
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def export_small_net(folder, dynamic_batch=False):
    """SmallNet with seeded random weights exported to folder: path, input, output."""
    torch.manual_seed(0)
    model = SmallNet().eval()
    for bn in (model.stem[1], model.block[1]):
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
    x = torch.randn(2, 3, 16, 16)
    path = str(folder / ("small_dyn.onnx" if dynamic_batch else "small.onnx"))
    torch.onnx.export(model, x, path, input_names=["x"], output_names=["y"], opset_version=17,
                      dynamic_axes={"x": {0: "n"}, "y": {0: "n"}} if dynamic_batch else None)
    with torch.no_grad():
        return path, x.numpy(), model(x).numpy()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    return export_small_net(tmp_path_factory.mktemp("exported"))


def test_exported_onnx_compiled_in_memory(exported):
    path, x, expected = exported
    session = geflow.InferenceSession(path)
    (y,) = session.run(None, {"x": x})
    np.testing.assert_allclose(y, expected, atol=1e-4)


def test_compile_bytes_and_file_agree(exported, tmp_path):
    path, x, expected = exported
    om_bytes = geflow.compile(path)
    assert isinstance(om_bytes, bytes) and len(om_bytes) > 0
    # Paths may be str or os.PathLike, as for open().
    om_path = geflow.compile(pathlib.Path(path), tmp_path / "small.om", streams="single")
    assert om_path == str(tmp_path / "small.om") and os.path.getsize(om_path) > 0
    from_bytes = geflow.InferenceSession(om_bytes).run(None, {"x": x})[0]
    from_file = geflow.InferenceSession(om_path).run(None, {"x": x})[0]
    np.testing.assert_allclose(from_bytes, expected, atol=1e-4)
    np.testing.assert_allclose(from_file, expected, atol=1e-4)


def test_bitwise_equal_to_geflow_run(tiny_cnn, tmp_path):
    model, image, _ = tiny_cnn
    om = geflow.compile(model, str(tmp_path / "tiny.om"))
    np.save(tmp_path / "image.npy", image)
    subprocess.run([os.environ.get("GEFLOW_BIN", "geflow"), "run", om,
                    "--input", f"image={tmp_path / 'image.npy'}",
                    "--output-dir", str(tmp_path / "out")],
                   check=True, stdout=subprocess.DEVNULL)
    cli = np.load(tmp_path / "out" / "probs.npy")
    (ours,) = geflow.InferenceSession(om).run(None, {"image": image})
    assert ours.tobytes() == cli.tobytes()


def test_compile_options_and_gears(tmp_path):
    path, x, expected = export_small_net(tmp_path, dynamic_batch=True)
    om = geflow.compile(path, str(tmp_path / "gears.om"),
                        input_shape={"x": [-1, 3, 16, 16]}, dynamic_batch_size=[1, 2, 4],
                        no_fuse=["batchnorm"])
    session = geflow.InferenceSession(om)
    assert session.get_inputs()[0].shape == [None, 3, 16, 16]
    (y,) = session.run(None, {"x": x})
    np.testing.assert_allclose(y, expected, atol=1e-4)
    (one,) = session.run(None, {"x": x[:1]})
    np.testing.assert_allclose(one, expected[:1], atol=1e-4)


def test_run_with_profile(tiny_cnn, tiny_session):
    _, image, probs = tiny_cnn
    (result,), summary = tiny_session.run_with_profile(None, {"image": image})
    np.testing.assert_allclose(result, probs, atol=1e-5)
    assert summary["makespan_us"] > 0 and summary["device_time_us"] > 0
    assert summary["model"] == "tiny_cnn" and len(summary["streams"]) >= 1


def test_dump_ge_graph(tiny_cnn, tmp_path, monkeypatch):
    monkeypatch.setenv("DUMP_GE_GRAPH", "2")
    monkeypatch.setenv("DUMP_GRAPH_LEVEL", "3")
    monkeypatch.setenv("DUMP_GRAPH_PATH", str(tmp_path / "dumps"))
    geflow.compile(tiny_cnn[0])
    assert os.listdir(tmp_path / "dumps") == ["ge_proto_00000_build.txt"]
