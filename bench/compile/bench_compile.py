#!/usr/bin/python3
"""Compile time against graph size: `make bench-compile`.

Generates the lanes graph (gen_graph.py) at each size and opset, compiles each
once with `geflow compile --time-passes`, and prints per phase and size the
wall time and peak RSS, then the growth factor between sizes. The whole
process (its peak RSS includes the contained libonnx process) is the "total"
row. One run per point: the figures are for comparing commits on one machine,
so the load is printed with them.

Usage: bench_compile.py GEFLOW OUTDIR [--sizes 10000,30000,100000]
                        [--opsets 13,17] [--keep]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# "    0.1234 ( 12.3%)       45.6 MiB  name", indented by depth after "MiB  ".
ROW = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+([0-9.]+) MiB  ( *)(.*)$")


def compile_once(geflow, model, om):
    """Wall time, whole-process peak RSS and the --time-passes phases."""
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen([geflow, "compile", model, "-o", om,
                                 "--time-passes"], stdout=subprocess.DEVNULL,
                                stderr=err)
        # wait4's ru_maxrss covers the process and the children it reaped:
        # the contained libonnx process too.
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        err.seek(0)
        text = err.read()
    if status != 0:
        sys.exit(f"error: geflow compile {model} failed:\n{text}")
    phases = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            depth = len(m.group(3)) // 2
            phases.append((depth, m.group(4), float(m.group(1)),
                           float(m.group(2))))
    return wall, usage.ru_maxrss / 1024.0, phases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("geflow")
    parser.add_argument("outdir")
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--opsets", default="13,17")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated models and OM files")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    opsets = [int(o) for o in args.opsets.split(",")]
    os.makedirs(args.outdir, exist_ok=True)
    print(f"== geflow compile --time-passes, lanes graph "
          f"(load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    for opset in opsets:
        results = {}
        for size in sizes:
            model = os.path.join(args.outdir, f"lanes_{size}_op{opset}.onnx")
            om = model[:-5] + ".om"
            if not os.path.exists(model):
                subprocess.run(["/usr/bin/python3",
                                os.path.join(HERE, "gen_graph.py"),
                                "--nodes", str(size), "--opset", str(opset),
                                "-o", model], check=True,
                               stdout=subprocess.DEVNULL)
            wall, rss, phases = compile_once(args.geflow, model, om)
            results[size] = (wall, rss, phases)
            if not args.keep:
                for path in (model, om):
                    if os.path.exists(path):
                        os.remove(path)
        report(opset, sizes, results)
    print(f"(load average after: {os.getloadavg()[0]:.2f})")


def report(opset, sizes, results):
    names = []
    for _, _, phases in results.values():
        for depth, name, _, _ in phases:
            if (depth, name) not in names:
                names.append((depth, name))
    by_size = {size: {(d, n): (t, m) for d, n, t, m in results[size][2]}
               for size in sizes}
    head = "".join(f"{f'{s // 1000}k s':>9}{'MiB':>8}" for s in sizes)
    growth = [f"x{a // 1000}k->{b // 1000}k" for a, b in zip(sizes, sizes[1:])]
    if len(sizes) > 2:
        growth.append(f"x{sizes[0] // 1000}k->{sizes[-1] // 1000}k")
    print(f"\n-- opset {opset}" + (" (converted to 17)" if opset != 17 else ""))
    print(f"{'phase':<40}{head}" + "".join(f"{g:>12}" for g in growth))

    def row(label, figures):
        cells = "".join(f"{t:>9.3f}{m:>8.0f}" if t is not None else f"{'-':>17}"
                        for t, m in figures)
        times = [t for t, _ in figures]
        pairs = list(zip(times, times[1:]))
        if len(times) > 2:
            pairs.append((times[0], times[-1]))
        factors = "".join(
            f"{b / a:>12.1f}" if a and b is not None and a > 0.0005
            else f"{'-':>12}" for a, b in pairs)
        print(f"{label:<40}{cells}{factors}")

    for depth, name in names:
        figures = [by_size[s].get((depth, name), (None, None)) for s in sizes]
        row(("  " * depth + name)[:39], figures)
    row("process (wall, peak RSS incl. libonnx)",
        [(results[s][0], results[s][1]) for s in sizes])


if __name__ == "__main__":
    main()
