#!/usr/bin/env python3
"""A geflow killed midway leaves no output behind.

geflow run stages its outputs, its trace and its profile (temporaries and the
folders made for them), then reads the --expect reference. Here that reference
is a FIFO: geflow waits on it with everything staged. The test then sends
SIGINT, SIGTERM or SIGHUP and checks that the signal ended geflow and that
the output folder is empty again.

  kill_midway.py --geflow BIN --maker BIN --work DIR
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

from run_badinput import make_good_model, report

WAIT_S = 60


def entries(folder):
    found = []
    for root, dirs, files in os.walk(folder):
        found += [os.path.relpath(os.path.join(root, n), folder) for n in dirs + files]
    return sorted(found)


def wait_for_reader(fifo, proc):
    """Opens `fifo` for writing once geflow has it open for reading."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            time.sleep(0.01)
    return None


def kill_midway(geflow, model, work, sig):
    out = os.path.join(work, f"out-{sig.name}")
    os.makedirs(out)
    fifo = os.path.join(work, f"ref-{sig.name}.npy")
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [geflow, "run", model, "--output-dir", os.path.join(out, "o", "deep"),
         "--trace", os.path.join(out, "t.json"), "--profile", os.path.join(out, "prof"),
         "--expect", "y=" + fifo],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    writer = wait_for_reader(fifo, proc)
    if writer is None:
        proc.kill()
        return f"geflow never reached its --expect file: {proc.communicate()[1][:300]!r}"
    staged = entries(out)
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        return "no exit after the signal"
    finally:
        os.close(writer)
    problems = []
    if not any(".tmp." in name for name in staged):
        problems.append(f"nothing was staged when the signal came: {staged}")
    if proc.returncode != -sig:
        problems.append(f"exit status {proc.returncode}, not killed by {sig.name}")
    left = entries(out)
    if left:
        problems.append(f"left behind: {left}")
    if problems:
        return "; ".join(problems) + f"\n    stderr: {err.decode(errors='replace')[:300]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--geflow", required=True)
    ap.add_argument("--maker", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()

    shutil.rmtree(a.work, ignore_errors=True)
    gen = os.path.join(a.work, "gen")
    os.makedirs(gen)
    make_good_model(a.maker, a.geflow, gen)
    model = os.path.join(gen, "good.om")
    return report([(sig.name, kill_midway(a.geflow, model, a.work, sig))
                   for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)],
                  "killed midway: {passed} of {total} signals left nothing behind")


if __name__ == "__main__":
    sys.exit(main())
