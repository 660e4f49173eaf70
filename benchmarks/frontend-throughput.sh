#!/bin/sh
# `kaleidoscope check` throughput and peak memory on a generated program of SIZE MB (default 12),
# on one core (taskset -c 0: the target is single-core) and unpinned.
# With BASELINE=/path/to/another/kaleidoscope, that build is measured too, alternately with
# this one, and the ratio printed: this machine's speed drifts by ±20% over minutes, so only
# side-by-side figures compare.
# Usage: [BASELINE=...] benchmarks/frontend-throughput.sh [SIZE_MB]
set -eu
cd "$(dirname "$0")/.."
size=${1:-12}
swift build -c release --product kaleidoscope >/dev/null 2>&1
program=$(mktemp --suffix=.ks)
trap 'rm -f "$program"' EXIT
python3 benchmarks/generate.py frontend "$size" >"$program"
python3 - "$program" "${BASELINE:-}" <<'PY'
import os, subprocess, sys, time
program, baseline = sys.argv[1], sys.argv[2]
size = os.path.getsize(program)

def measure(tool, pinned):
    """Wall time of one `check` and its peak resident memory."""
    start = time.perf_counter()
    child = subprocess.Popen((["taskset", "-c", "0"] if pinned else []) + [tool, "check", program])
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    assert status == 0, "the generated program must check cleanly"
    return elapsed, usage.ru_maxrss * 1024

tools = [".build/release/kaleidoscope"] + ([baseline] if baseline else [])
print(f"source: {size / 1e6:.1f} MB")
for pinned in (True, False):
    best = {tool: (float("inf"), 0) for tool in tools}
    for _ in range(7):
        for tool in tools:
            elapsed, peak = measure(tool, pinned)
            best[tool] = (min(best[tool][0], elapsed), max(best[tool][1], peak))
    where = "one core" if pinned else "unpinned"
    for tool in tools:
        elapsed, peak = best[tool]
        print(f"{tool} ({where}): check {elapsed * 1000:.0f} ms (best of 7) = {size / 1e6 / elapsed:.0f} MB/s; "
              f"peak memory {peak / 1e6:.0f} MB = {peak / size:.1f}x the source")
    if baseline:
        ours, theirs = best[tools[0]], best[baseline]
        print(f"({where}) time ratio {ours[0] / theirs[0]:.2f}x, memory ratio {ours[1] / theirs[1]:.2f}x against the baseline")
PY
