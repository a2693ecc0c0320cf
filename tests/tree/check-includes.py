#!/usr/bin/env python3
"""The include check of `make test` (ctest include-check).

    check-includes.py [--root DIR] [--rules FILE]

Reads the table under "Include rules" in DIR/docs/architecture.md (or FILE)
and checks every `#include "..."` line of every C/C++ source under DIR's
top-level folders against it, so the layering that page draws stays true.

An include is ours when its first component is a top-level folder of DIR
(`passes/Pipeline.h`, generated ones such as `passes/Passes.h.inc` too), or
when it resolves beside the including file or under a folder named
`include` (`acl/acl.h`); anything else is third party and not checked. A
file obeys the row of the longest folder that holds it; a folder may always
include its own files and subfolders. In "may include", `dir/` is a folder
with everything under it, `dir/*` the files directly in it, `any`
everything, anything else one file.

Exit status: 0 when every include is allowed; 1 with one line per violation
(and per file no row covers); 2 when the table cannot be read.
"""

import argparse
import os
import re
import sys

SOURCE_RE = re.compile(r"\.(h|hpp|hh|c|cc|cpp|cxx|inc|def)$")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
TICKS_RE = re.compile(r"`([^`]+)`")
SECTION = "Include rules"
WHERE = '(docs/architecture.md, "%s")' % SECTION


def read_rules(path):
    """{folder: [allowance, ...]} from the first `| folder | may include |`
    table after the "Include rules" heading."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        sys.exit("check-includes: cannot read %s: %s" % (path, error.strerror))
    start = next((i for i, line in enumerate(lines)
                  if line.startswith("#") and line.lstrip("#").strip() == SECTION),
                 None)
    if start is None:
        sys.exit('check-includes: %s has no "%s" heading' % (path, SECTION))
    rules = {}
    in_table = False
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not in_table:
            if line.startswith("|") and [c.lower() for c in cells[:2]] == [
                    "folder", "may include"]:
                in_table = True
            continue
        if not line.startswith("|"):
            break
        if set(cells[0]) <= set("-: "):
            continue  # the header's separator row
        folders = TICKS_RE.findall(cells[0])
        allowed = TICKS_RE.findall(cells[1]) if len(cells) > 1 else []
        for folder in folders:
            if not folder.endswith("/"):
                sys.exit("check-includes: %s: folder `%s` must end in '/'" %
                         (path, folder))
            rules[folder] = allowed
    if not rules:
        sys.exit('check-includes: %s: no "| folder | may include |" table under "%s"'
                 % (path, SECTION))
    return rules


def allows(allowance, target):
    if allowance == "any":
        return True
    if allowance.endswith("/*"):
        folder = allowance[:-1]
        return target.startswith(folder) and "/" not in target[len(folder):]
    if allowance.endswith("/"):
        return target.startswith(allowance)
    return target == allowance


def forbidden_name(allowed, target):
    """What the message says may not be included: the included file's folder,
    unless the row allows something in that folder, then the file itself."""
    folder = target.rsplit("/", 1)[0] + "/" if "/" in target else target
    if any(a.startswith(folder) for a in allowed):
        return target
    return folder


def source_files(root, tops):
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            # Build trees (a CMakeCache.txt; at the top also build*) and
            # hidden folders are not source.
            dirnames[:] = sorted(
                d for d in dirnames if not d.startswith(".") and
                not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt")))
            for name in sorted(filenames):
                if SOURCE_RE.search(name):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument("--rules", help="default: ROOT/docs/architecture.md")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    rules = read_rules(args.rules or os.path.join(root, "docs", "architecture.md"))

    tops = sorted(
        d for d in os.listdir(root)
        if os.path.isdir(os.path.join(root, d)) and
        not d.startswith((".", "build")) and
        not os.path.exists(os.path.join(root, d, "CMakeCache.txt")))
    files = list(source_files(root, tops))
    # Folders named `include` are include roots (`acl/acl.h`).
    include_dirs = sorted({
        "/".join(parts[:i + 1]) for parts in (f.split("/") for f in files)
        for i, part in enumerate(parts[:-1]) if part == "include"
    })

    def resolve(source, text):
        if text.split("/", 1)[0] in tops:
            return os.path.normpath(text)
        for base in [os.path.dirname(source)] + include_dirs:
            candidate = os.path.normpath(os.path.join(base, text))
            if os.path.isfile(os.path.join(root, candidate)):
                return candidate
        return None  # third party

    problems = []
    uncovered = set()
    for source in files:
        row = max((f for f in rules if source.startswith(f)), key=len, default=None)
        if row is None:
            top = source.split("/", 1)[0] + "/"
            if top not in uncovered:
                uncovered.add(top)
                problems.append("%s: no row covers %s %s" % (source, top, WHERE))
            continue
        allowed = rules[row]
        with open(os.path.join(root, source), encoding="utf-8",
                  errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                match = INCLUDE_RE.match(line)
                if not match:
                    continue
                target = resolve(source, match.group(1))
                if target is None or target.startswith(row) or any(
                        allows(a, target) for a in allowed):
                    continue
                problems.append("%s:%d: includes %s, but %s may not include %s %s"
                                % (source, number, target, row,
                                   forbidden_name(allowed, target), WHERE))
    for problem in problems:
        print(problem)
    if problems:
        print("check-includes: %d violation(s) in %d files" %
              (len(problems), len(files)))
        return 1
    print("check-includes: %d files, every include allowed" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
