#!/bin/sh
# `kaleidoscope fmt` throughput on a generated program of SIZE MB (default 12), against
# `check` of the same file in the same run (formatting parses too, then prints): best of 7,
# alternating, release build.
# Usage: benchmarks/format-throughput.sh [SIZE_MB]
set -eu
cd "$(dirname "$0")/.."
size=${1:-12}
swift build -c release --product kaleidoscope >/dev/null 2>&1
program=$(mktemp --suffix=.ks)
trap 'rm -f "$program"' EXIT
python3 benchmarks/generate.py frontend "$size" >"$program"
python3 - "$program" <<'PY'
import os, subprocess, sys, time
program = sys.argv[1]
size = os.path.getsize(program)
tool = ".build/release/kaleidoscope"

def measure(command):
    """Wall time of one run (its output thrown away) and its peak resident memory."""
    start = time.perf_counter()
    child = subprocess.Popen([tool] + command + [program], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0, f"{command} failed"
    return time.perf_counter() - start, usage.ru_maxrss * 1024

best = {"fmt": (float("inf"), 0), "check": (float("inf"), 0)}
for _ in range(7):
    for name in best:
        elapsed, peak = measure([name])
        best[name] = (min(best[name][0], elapsed), max(best[name][1], peak))
(fmt, fmt_peak), (check, _) = best["fmt"], best["check"]
print(f"source: {size / 1e6:.1f} MB")
print(f"fmt {fmt * 1000:.0f} ms (best of 7) = {size / 1e6 / fmt:.1f} MB/s; peak {fmt_peak / 1e6:.0f} MB")
print(f"check {check * 1000:.0f} ms; fmt / check = {fmt / check:.2f}x")
PY
