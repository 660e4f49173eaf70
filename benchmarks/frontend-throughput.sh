#!/bin/sh
# `kaleidoscope check` throughput and peak memory on a generated program of SIZE MB (default 12).
# Usage: benchmarks/frontend-throughput.sh [SIZE_MB]
set -eu
cd "$(dirname "$0")/.."
size=${1:-12}
swift build -c release --product kaleidoscope >/dev/null
program=$(mktemp --suffix=.ks)
trap 'rm -f "$program"' EXIT
python3 benchmarks/generate.py frontend "$size" >"$program"
python3 - "$program" <<'PY'
import os, resource, subprocess, sys, time
program = sys.argv[1]
size = os.path.getsize(program)
best = None
for _ in range(5):
    start = time.perf_counter()
    result = subprocess.run([".build/release/kaleidoscope", "check", program])
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, "the generated program must check cleanly"
    best = elapsed if best is None else min(best, elapsed)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(f"source: {size / 1e6:.1f} MB")
print(f"check:  {best * 1000:.0f} ms (best of 5) = {size / 1e6 / best:.0f} MB/s")
print(f"peak memory: {peak / 1e6:.0f} MB = {peak / size:.1f}x the source")
PY
