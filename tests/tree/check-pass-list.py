#!/usr/bin/env python3
"""passes/README.md lists every pass (ctest passes-readme-lists-passes).

    check-pass-list.py [--root DIR]

Compares the passes declared in DIR/passes/Passes.td (`def X : Pass<"name",
...>`) with the passes passes/README.md lists (a table row whose first cell
is a backticked `ge-...` name). Exit status: 0 when the two sets are equal;
1 naming the passes the README misses and those it lists but Passes.td does
not declare.
"""

import argparse
import os
import re
import sys

DECLARED_RE = re.compile(r'^\s*def\s+\w+\s*:\s*Pass<\s*"([^"]+)"', re.MULTILINE)
LISTED_RE = re.compile(r"^\|\s*`(ge-[a-z0-9-]+)`\s*\|", re.MULTILINE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    root = os.path.abspath(parser.parse_args().root)
    td = os.path.join(root, "passes", "Passes.td")
    readme = os.path.join(root, "passes", "README.md")
    declared = set(DECLARED_RE.findall(open(td, encoding="utf-8").read()))
    listed = set(LISTED_RE.findall(open(readme, encoding="utf-8").read()))
    if not declared:
        print("check-pass-list: no pass declared in passes/Passes.td")
        return 1
    missing = sorted(declared - listed)
    extra = sorted(listed - declared)
    if missing:
        print("passes/README.md does not list: " + ", ".join(missing))
    if extra:
        print("passes/README.md lists passes passes/Passes.td does not declare: "
              + ", ".join(extra))
    if missing or extra:
        return 1
    print("check-pass-list: passes/README.md lists the %d passes of Passes.td"
          % len(declared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
