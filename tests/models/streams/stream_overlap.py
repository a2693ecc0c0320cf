#!/usr/bin/python3
"""stream_overlap.py TRACE.json OP_A OP_B

Reads a `geflow run --trace` file and prints the overlap of the two streams
that ran the kernels OP_A and OP_B (op name prefixes), as DESIGN.md defines it:
time both streams are busy with kernels / busy time of the less busy one.
"""
import json
import sys


def merged(intervals):
    out = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def busy(intervals):
    return sum(end - start for start, end in intervals)


def both_busy(a, b):
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        total += max(0.0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def main():
    trace, op_a, op_b = sys.argv[1:4]
    with open(trace) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    kernels = [e for e in events
               if e.get("ph") == "X" and e.get("args", {}).get("kind") == "KERNEL"]
    per_stream = {}
    stream_of = {}
    for e in kernels:
        stream = e["args"]["stream"]
        per_stream.setdefault(stream, []).append((e["ts"], e["ts"] + e["dur"]))
        for op in (op_a, op_b):
            if e["name"].startswith(op):
                stream_of.setdefault(op, stream)
    a, b = stream_of[op_a], stream_of[op_b]
    if a == b:
        print(f"error: {op_a} and {op_b} ran on the same stream {a}", file=sys.stderr)
        return 1
    ia, ib = merged(per_stream[a]), merged(per_stream[b])
    shorter = min(busy(ia), busy(ib))
    print(f"{both_busy(ia, ib) / shorter:.3f}" if shorter else "0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
