"""Threads sharing one session, and 1000 runs without growing memory."""
import threading

import numpy as np

import geflow


def test_threads_share_one_session(tiny_cnn, tiny_session):
    _, image, probs = tiny_cnn
    (expected,) = tiny_session.run(None, {"image": image})
    failures = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        for _ in range(20):
            # Each thread also runs its own input, so results cannot be mixed up.
            mine = rng.standard_normal(image.shape, dtype=np.float32)
            (mine_out,) = tiny_session.run(None, {"image": mine})
            (out,) = tiny_session.run(None, {"image": image})
            if not np.array_equal(out, expected) or not np.isclose(mine_out.sum(), 1.0, atol=1e-4):
                failures.append(seed)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_rss_flat_over_1000_runs(tiny_cnn):
    model, image, _ = tiny_cnn
    session = geflow.InferenceSession(model, threads=1)
    for _ in range(100):  # warm: pools, caches, numpy's allocator
        session.run(None, {"image": image})
    before = rss_kib()
    for _ in range(1000):
        session.run(None, {"image": image})
    grown = rss_kib() - before
    # A leak of one output (40 bytes) or one input copy (12 KiB) per run would
    # show as 40 KiB to 12 MiB; allow allocator noise well below the latter.
    assert grown < 2048, f"RSS grew by {grown} KiB over 1000 runs"
