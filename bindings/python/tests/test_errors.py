"""Bad input raises geflow.GeflowError (a RuntimeError) with one line."""
import numpy as np
import pytest

import geflow


def one_line_error(call, *pieces):
    with pytest.raises(geflow.GeflowError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and message
    for piece in pieces:
        assert piece in message, message
    return message


def test_error_is_a_runtime_error():
    assert issubclass(geflow.GeflowError, RuntimeError)


def test_bad_inputs(tiny_cnn, tiny_session):
    image = tiny_cnn[1]
    run = tiny_session.run
    one_line_error(lambda: run(None, {}), "input 'image'", "missing")
    one_line_error(lambda: run(None, {"image": image.astype(np.float64)}),
                   "expected float32[1,3,32,32]", "given float64")
    one_line_error(lambda: run(None, {"image": image[:, :, :16]}),
                   "expected float32[1,3,32,32]", "given float32[1,3,16,32]")
    one_line_error(lambda: run(None, {"image": image, "other": image}), "'other'")
    one_line_error(lambda: run(["nope"], {"image": image}), "no output named 'nope'")
    # A non-contiguous array of the right dtype is accepted (copied).
    (probs,) = run(None, {"image": np.asfortranarray(image)})
    np.testing.assert_allclose(probs, tiny_cnn[2], atol=1e-5)


def test_bad_files(tmp_path, tiny_cnn):
    one_line_error(lambda: geflow.InferenceSession(str(tmp_path / "none.om")), "none.om")
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"not a model")
    one_line_error(lambda: geflow.InferenceSession(str(garbage)), "garbage.onnx")
    one_line_error(lambda: geflow.InferenceSession(b"not an om"))
    one_line_error(lambda: geflow.compile(str(garbage)), "garbage.onnx")


def test_bad_options(tiny_cnn, tmp_path, monkeypatch):
    model = tiny_cnn[0]
    one_line_error(lambda: geflow.compile(model, soc="no-such-soc"), "no-such-soc")
    one_line_error(lambda: geflow.compile(model, streams="many"), "streams='many'")
    one_line_error(lambda: geflow.compile(model, input_shape="image:1,x"), "image")
    one_line_error(lambda: geflow.InferenceSession(model, threads=0), "threads")
    monkeypatch.setenv("DUMP_GE_GRAPH", "9")
    one_line_error(lambda: geflow.compile(model), "DUMP_GE_GRAPH='9'")
