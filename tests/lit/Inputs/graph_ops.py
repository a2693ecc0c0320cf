#!/usr/bin/env python3
"""Prints one line per op of a GraphDef text dump, `name type stream=S`
(plus `event=E` on Send/Recv), so lit tests can FileCheck a dump's ops.
Exits 1, naming the op, when an op has no stream_id or a Send/Recv no
event_id: a dump must show both on every op, GE style."""
import re
import sys


def ops(lines):
    """Yields (name, type, stream_id, event_id) per top-level `op { ... }`."""
    depth, op, key = 0, None, None
    for line in lines:
        text = line.strip()
        if depth == 0 and text == "op {":
            op, key = {}, None
        elif op is not None and depth == 1:
            match = re.fullmatch(r'(name|type|stream_id): "?([^"]*)"?', text)
            if match:
                op[match.group(1)] = match.group(2)
        elif op is not None:
            if text.startswith("key: "):
                key = text[len("key: "):].strip('"')
            match = re.fullmatch(r"i: (-?\d+)", text)
            if key == "event_id" and match:
                op["event_id"] = match.group(1)
        depth += text.count("{") - text.count("}")
        if depth == 0 and op is not None:
            yield op
            op = None


def main(path):
    status = 0
    with open(path) as dump:
        for op in ops(dump):
            name, kind = op.get("name", "?"), op.get("type", "?")
            line = f"{name} {kind} stream={op.get('stream_id', 'MISSING')}"
            if kind in ("Send", "Recv"):
                line += f" event={op.get('event_id', 'MISSING')}"
            print(line)
            if "MISSING" in line:
                print(f"error: op '{name}' lacks stream_id or event_id",
                      file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
