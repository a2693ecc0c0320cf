#!/usr/bin/env bash
# The C++ formatting check of `make test` (ctest -L format).
#
#   check-format.sh [--root DIR] [--clang-format BIN] [FILE...]
#
# Without FILEs it checks every tracked C++ file of the repository at DIR
# (default: the repository holding this script): `git ls-files` of *.cpp, *.h
# and *.inc. With FILEs it checks exactly those (tests/format/selftest.sh uses
# this on a deliberately misformatted file). The style is always DIR's
# .clang-format, wherever the files are.
#
# Left out: `.def` files. They are X-macro tables (the op table), kept aligned
# in columns by hand, as LLVM's own .def files are; clang-format would
# collapse the alignment and wrap wide rows. Nothing generated or vendored is
# tracked (TableGen's .inc output lives in the build folder).
#
# Exit status: 0 when every file is formatted; 1 when some are not, each named
# on a line of its own with the command that fixes it; 77 (ctest's skip) when
# clang-format is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
clang_format=${CLANG_FORMAT:-clang-format-19}
files=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --root) root=$(cd "$2" && pwd); shift 2 ;;
    --clang-format) clang_format=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; files+=("$@"); break ;;
    -*) echo "check-format: unknown option '$1'" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done

if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: '$clang_format' not found (scripts/install-deps.sh installs clang-format-19); skipped" >&2
  exit 77
fi
style="$root/.clang-format"
if [[ ! -f "$style" ]]; then
  echo "check-format: no .clang-format in $root" >&2
  exit 2
fi

if [[ ${#files[@]} -eq 0 ]]; then
  if ! git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-format: $root is not a git work tree; pass the files to check" >&2
    exit 2
  fi
  cd "$root"
  while IFS= read -r f; do
    [[ -f "$f" ]] && files+=("$f") # a file deleted but not yet staged
  done < <(git ls-files -- '*.cpp' '*.h' '*.inc')
fi
if [[ ${#files[@]} -eq 0 ]]; then
  echo "check-format: no files to check" >&2
  exit 2
fi

# One clang-format per file, two at a time per core, each run as
# `sh -c SCRIPT clang-format style log FILE`; a file that differs prints its
# name, and its diagnostics go to the log, whose start is shown.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
jobs=$(( $(nproc 2>/dev/null || echo 2) * 2 ))
bad=$(printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$jobs" sh -c '
    if ! "$0" --dry-run --Werror --style="file:$1" "$3" >/dev/null 2>"$2.$$"; then
      echo "$3"; cat "$2.$$" >> "$2"
    fi
    rm -f "$2.$$"' "$clang_format" "$style" "$log" |
  sort) || true

if [[ -z "$bad" ]]; then
  echo "check-format: ${#files[@]} file(s) formatted as .clang-format says"
  exit 0
fi
count=$(printf '%s\n' "$bad" | wc -l)
echo "check-format: $count of ${#files[@]} file(s) differ from .clang-format:"
printf '%s\n' "$bad" | sed 's/^/  /'
echo "First differences:"
head -n 12 "$log" | sed 's/^/  /'
echo "Fix: $clang_format -i --style=file:$style FILE..."
exit 1
