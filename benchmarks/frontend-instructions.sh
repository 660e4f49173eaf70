#!/bin/sh
# Instructions `kaleidoscope check` executes on a generated program of SIZE MB (default 2),
# counted by valgrind's callgrind: unlike wall time, not disturbed by the other tenants of
# this shared machine, so a change of 1% shows. With BASELINE=/path/to/another/kaleidoscope,
# that build is counted too and the ratio printed. Debug sections are stripped from copies
# of the binaries first: valgrind 3.19 cannot read the ones the Swift toolchain writes.
# Usage: [BASELINE=...] benchmarks/frontend-instructions.sh [SIZE_MB]
set -eu
cd "$(dirname "$0")/.."
size=${1:-2}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
swift build -c release --product kaleidoscope >/dev/null 2>&1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 benchmarks/generate.py frontend "$size" >"$work/program.ks"
count() {
  objcopy --strip-debug "$1" "$work/tool"
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/tool" check "$work/program.ks" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
ours=$(count .build/release/kaleidoscope)
echo "source: $size MB"
echo ".build/release/kaleidoscope: $ours instructions"
if [ -n "${BASELINE:-}" ]; then
  theirs=$(count "$BASELINE")
  echo "$BASELINE: $theirs instructions"
  python3 -c "print(f'instruction ratio {$ours / $theirs:.3f}x against the baseline')"
fi
