"""geflow: compile ONNX models to OM artifacts and run them on the simulated NPU.

    import geflow
    om = geflow.compile("model.onnx", "model.om")      # or bytes with output=None
    s = geflow.InferenceSession("model.om")            # .om, OM bytes or .onnx
    (probs,) = s.run(None, {s.get_inputs()[0].name: x})

Every failure raises geflow.GeflowError (a RuntimeError) with a one-line message.
"""
from ._geflow import GeflowError, InferenceSession, NodeArg, compile

__all__ = ["GeflowError", "InferenceSession", "NodeArg", "compile"]
