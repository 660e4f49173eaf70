#!/bin/sh
# The differential soak: COUNT generated programs (default 10000, seeds FROM.. , default
# 1000), each run by the interpreter and the JIT at -O0 and -O3, every tenth also built
# natively; any disagreement prints the seed and the program.
#
#   scripts/soak.sh [COUNT] [FROM]
#
# The test bundle and the tool are copied aside first, so that building while the soak
# runs cannot change the binaries under it.
set -eu
cd "$(dirname "$0")/.."
count=${1:-10000}
from=${2:-1000}
swift build --build-tests >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp .build/debug/KaleidoscopePackageTests.xctest .build/debug/kaleidoscope "$work/"
start=$(date +%s)
status=0
KALEIDOSCOPE_SOAK_FROM=$from KALEIDOSCOPE_SOAK_COUNT=$count \
  "$work/KaleidoscopePackageTests.xctest" --testing-library swift-testing --filter 'Differential' \
  >"$work/log" 2>&1 || status=$?
grep -E "↳ seed|✘ Test run|✔ Test run" "$work/log" | cut -c1-2000 || true
echo "soak: $count programs from seed $from in $(( $(date +%s) - start )) s, exit $status"
exit $status
