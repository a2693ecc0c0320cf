#!/usr/bin/python3
"""Runs an exported detector through `geflow compile` and `geflow run` and
compares its detections with torch's.

    /usr/bin/python3 check_detections.py GEFLOW MODEL.onnx REFERENCE_STEM

REFERENCE_STEM.{input,boxes,scores,labels}.npy and REFERENCE_STEM.unambiguous
are what export_detection_models.py writes. Checked:
  - the detection count (the model keeps its top 300 after NMS) and every
    score: sorted scores match even where equal scores tie, within
    atol 1e-5 (scores are probabilities in [0, 1]; geflow's float32 kernels
    sum in another order than torch's, measured 6e-7 at most);
  - boxes and labels of the first .unambiguous detections (whose scores are
    distinct, so both sides rank them the same): labels exactly, boxes within
    atol 1e-3 + rtol 1e-4 in pixels of the 320x320 image (measured 5e-5 at
    most; a tenth of a thousandth of a pixel changes no detection).
Exits 1 naming the first mismatch.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

SCORE_ATOL = 1e-5
BOX_ATOL, BOX_RTOL = 1e-3, 1e-4


def main():
    geflow, onnx_path, stem = sys.argv[1:4]
    unambiguous = int(open(stem + ".unambiguous").read())
    with tempfile.TemporaryDirectory() as tmp:
        om = os.path.join(tmp, "model.om")
        out = os.path.join(tmp, "out")
        subprocess.run([geflow, "compile", onnx_path, "-o", om], check=True)
        # Two executions: the second must reuse every compiled stage.
        run = subprocess.run(
            [geflow, "run", om, "--input", "image=" + stem + ".input.npy",
             "--output-dir", out, "--repeat", "2"],
            check=True, capture_output=True, text=True)
        print(run.stdout, end="")
        if "the last 0 " not in run.stdout:
            sys.exit("the second execution compiled stages again")
        got = {k: np.load(os.path.join(out, k + ".npy"))
               for k in ("boxes", "scores", "labels")}
    want = {k: np.load(stem + "." + k + ".npy")
            for k in ("boxes", "scores", "labels")}
    for k in want:
        if got[k].shape != want[k].shape:
            sys.exit("%s: geflow %s, torch %s" % (k, got[k].shape,
                                                  want[k].shape))
    n = unambiguous
    checks = [
        ("scores", np.abs(got["scores"] - want["scores"]) <= SCORE_ATOL),
        ("labels[:%d]" % n, got["labels"][:n] == want["labels"][:n]),
        ("boxes[:%d]" % n, np.all(np.abs(got["boxes"][:n] - want["boxes"][:n])
                                  <= BOX_ATOL + BOX_RTOL *
                                  np.abs(want["boxes"][:n]), axis=1)),
    ]
    for name, ok in checks:
        if not ok.all():
            i = int(np.argmin(ok))
            sys.exit("%s: detection %d differs: geflow %s, torch %s" % (
                name, i, got[name.split("[")[0]][i],
                want[name.split("[")[0]][i]))
    print("%s: %d detections, scores match, the first %d boxes and labels "
          "match torch's" % (os.path.basename(onnx_path), len(want["scores"]),
                             n))


if __name__ == "__main__":
    main()
