#!/usr/bin/env bash
# check-includes.py checks what it says: on a small tree in a temporary
# folder, ruled by the real docs/architecture.md, it must pass while the tree
# keeps the rules and fail, naming file, line and rule, once a file under
# passes/emit/ includes passes/Pipeline.h and one under passes/streams/
# includes passes/emit/.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
checker="$here/check-includes.py"
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "selftest: $*"; exit 1; }

mkdir -p "$work/docs" "$work/passes/emit" "$work/passes/streams" "$work/runtime/include/acl"
cp "$root/docs/architecture.md" "$work/docs/"
printf '#pragma once\n' >"$work/passes/Pipeline.h"
printf '#pragma once\n' >"$work/passes/PassSupport.h"
printf '#pragma once\n' >"$work/passes/streams/HappensBefore.h"
printf '#pragma once\n' >"$work/runtime/include/acl/acl.h"
printf '#include "passes/emit/Planner.h"\n\n#include "passes/PassSupport.h"\n#include "passes/streams/HappensBefore.h"\n#include "llvm/ADT/Twine.h"\n' \
  >"$work/passes/emit/Planner.cpp"
printf '#pragma once\n#include "passes/streams/HappensBefore.h"\n' >"$work/passes/emit/Planner.h"

out=$("$python" "$checker" --root "$work" 2>&1)
rc=$?
[[ $rc -eq 0 ]] || fail "expected exit 0 on a tree that keeps the rules, got $rc: $out"

# Plant the two violations.
printf '// a planted violation\n#include "passes/PassSupport.h"\n#include "passes/Pipeline.h"\n' \
  >"$work/passes/emit/Bad.cpp"
printf '#include "passes/streams/HappensBefore.h"\n#include "passes/emit/Planner.h"\n' \
  >"$work/passes/streams/Bad.cpp"
out=$("$python" "$checker" --root "$work" 2>&1)
rc=$?
[[ $rc -eq 1 ]] || fail "expected exit 1 on the planted includes, got $rc: $out"
expect='passes/emit/Bad.cpp:3: includes passes/Pipeline.h, but passes/emit/ may not include passes/Pipeline.h (docs/architecture.md, "Include rules")'
grep -qxF "$expect" <<<"$out" || fail "missing the line '$expect' in: $out"
expect='passes/streams/Bad.cpp:2: includes passes/emit/Planner.h, but passes/streams/ may not include passes/emit/ (docs/architecture.md, "Include rules")'
grep -qxF "$expect" <<<"$out" || fail "missing the line '$expect' in: $out"
[[ $(grep -c ': includes ' <<<"$out") -eq 2 ]] || fail "expected exactly two violations: $out"

# A folder the table has no row for is an error too.
mkdir -p "$work/newlayer"
printf '#include "passes/Pipeline.h"\n' >"$work/newlayer/X.cpp"
out=$("$python" "$checker" --root "$work" 2>&1)
grep -q '^newlayer/X.cpp: no row covers newlayer/' <<<"$out" || fail "an uncovered folder passed: $out"

echo "selftest: check-includes.py passes a tree that keeps the rules and names each planted violation"
