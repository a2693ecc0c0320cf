#!/usr/bin/env bash
# check-format.sh checks what it says: on copies of samples/ in a temporary
# folder, it must FAIL on a deliberately misformatted file (and name it) and
# pass on the same code formatted. Exit 77 (ctest's skip) without clang-format.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
checker="$here/check-format.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/samples/misformatted.cpp.txt" "$work/misformatted.cpp"
cp "$here/samples/formatted.cpp.txt" "$work/formatted.cpp"

fail() { echo "selftest: $*"; exit 1; }

out=$("$checker" --root "$root" "$work/misformatted.cpp" 2>&1)
rc=$?
[[ $rc -eq 77 ]] && { echo "$out"; exit 77; }
[[ $rc -eq 1 ]] || fail "expected exit 1 on the misformatted file, got $rc: $out"
grep -q "misformatted.cpp" <<<"$out" || fail "the failure does not name the file: $out"

out=$("$checker" --root "$root" "$work/formatted.cpp" 2>&1)
rc=$?
[[ $rc -eq 0 ]] || fail "expected exit 0 on the formatted file, got $rc: $out"

# Both together: fails, and names only the misformatted one.
out=$("$checker" --root "$root" "$work/formatted.cpp" "$work/misformatted.cpp" 2>&1)
rc=$?
[[ $rc -eq 1 ]] || fail "expected exit 1 on the pair, got $rc: $out"
grep -q "1 of 2 file(s) differ" <<<"$out" || fail "expected exactly one file named: $out"
grep -q "^  .*/formatted.cpp$" <<<"$out" && fail "the formatted file was named: $out"

echo "selftest: check-format.sh fails on a misformatted file and passes a formatted one"
