#!/usr/bin/python3
"""Rewrites expected_failures.txt from a geflow-conformance run.

    geflow-conformance ... > run.txt
    tests/conformance/update_expected_failures.py run.txt expected_failures.txt

A test keeps the section (and reason) it is listed under while it still does
not pass. A new non-pass goes under a section named after its reason: the
unsupported op, "a shape operand is a graph input" when it passes with the
test data bound, or the runner's own message. Tests that pass drop out.
Edit the generated headers by hand where a better reason is known.
"""
import re
import sys

# Why ops are outside the compiler, for the headers of generated sections.
OUT_OF_SCOPE = {
    "control flow (If, Loop, Scan): not compiled, static graphs only":
        {"If", "Loop", "Scan"},
    "sequence/optional values are not supported":
        {"SequenceMap", "SequenceEmpty", "SequenceLength", "SequenceInsert",
         "SequenceAt", "SequenceConstruct", "SplitToSequence",
         "ConcatFromSequence", "OptionalGetElement", "OptionalHasElement",
         "Optional"},
    "string tensors are not supported":
        {"StringNormalizer", "TfIdfVectorizer", "RegexFullMatch",
         "StringConcat", "StringSplit"},
    "output size depends on the data (needs shapes known at run time)":
        {"NonZero", "NonMaxSuppression", "Unique", "Compress"},
    "random number generators (no reproducible reference)":
        {"Bernoulli", "RandomUniformLike", "RandomNormalLike", "RandomUniform",
         "RandomNormal", "Multinomial"},
    "training ops (ai.onnx.preview.training; inference-only compiler)":
        {"Adagrad", "Adam", "Momentum", "Gradient"},
}
NEEDS_RUNTIME_SHAPES = ("a shape operand is a graph input: its value is known "
                        "only at run time (passes with the test data bound)")


def read_run(path):
    """{test: reason} of every strict non-pass in a runner's output."""
    failures = {}
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(?:X?FAIL) (\(unsupported\) )?(\S+): (.*)", line)
        if not m:
            continue
        unsupported, name, reason = m.groups()
        bound = i + 1 < len(lines) and "passes with its shape inputs bound" in lines[i + 1]
        if bound:
            failures[name] = NEEDS_RUNTIME_SHAPES
        elif unsupported:
            op = re.search(r"\((?:[\w.]+\.)?(\w+), opset", reason)
            failures[name] = unsupported_header(op.group(1) if op else reason)
        else:
            failures[name] = re.sub(r"'[^']*'", "'…'", reason)[:160]
    return failures


def unsupported_header(op):
    for header, ops in OUT_OF_SCOPE.items():
        if op in ops:
            return header
    return f"unsupported op {op}"


def read_list(path):
    """The header comment, then [(comment lines, names)] per blank-line block."""
    blocks = open(path).read().strip().split("\n\n")
    sections = []
    for block in blocks[1:]:
        lines = [line for line in block.splitlines() if line.strip()]
        sections.append(([line for line in lines if line.startswith("#")],
                         [line.split("#")[0].strip() for line in lines
                          if not line.startswith("#")]))
    return blocks[0].splitlines(), sections


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    failures = read_run(sys.argv[1])
    header, sections = read_list(sys.argv[2])
    # A generated section keeps only the tests that still fail for its reason;
    # a hand-written one keeps every test that still fails.
    generated = {f"# {r}" for r in failures.values()} | {
        f"# {r}" for r in list(OUT_OF_SCOPE) + [NEEDS_RUNTIME_SHAPES]}
    for comments, names in sections:
        if len(comments) == 1 and (comments[0] in generated or
                                   comments[0].startswith("# unsupported op ")):
            names[:] = [n for n in names if f"# {failures.get(n)}" == comments[0]]
    placed = {n for _, names in sections for n in names if n in failures}
    for name, reason in sorted(failures.items()):
        if name in placed:
            continue
        section = next((s for s in sections if s[0] == [f"# {reason}"]), None)
        if section is None:
            section = ([f"# {reason}"], [])
            sections.append(section)
        section[1].append(name)
    out = list(header)
    for comments, names in sections:
        kept = [n for n in names if n in failures]
        if kept:
            out += [""] + comments + kept
    open(sys.argv[2], "w").write("\n".join(out) + "\n")
    print(f"{len(failures)} tests listed, {len(failures) - len(placed)} of them newly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
