#!/usr/bin/env python3
"""Classic programs written the way users write them: does the default `run` (tiers) fall
far behind `run --tier jit` on any?

Runs each program of benchmarks/programs/ both ways, alternately, best of N each (as
shapes.py does for generated loop nests), checks that both print the same, and prints
both times, their ratio and their difference; then the worst program. The programs were
written for this benchmark, not tuned for the tiers: recursion over arrays, while loops
of short unpredictable runs, helpers called from nests, strings, loops at the top level.
Target (issue 31, as for the shapes): the worst is at most 1.25x, or at most 20 ms more
than `--tier jit`.

Usage: benchmarks/programs.py [--repeat N] [--only SUBSTRING]
       (from the repository root; builds the release binary first)
"""
import glob
import os
import subprocess

from shapes import ONLY, REPEAT, ROOT, TOOL, compare, report


def main():
    os.chdir(ROOT)
    if "KALEIDOSCOPE_TOOL" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], check=True, stdout=subprocess.DEVNULL)
    print(f"best of {REPEAT}; whole-process wall time\n")
    print(f"{'program':<16} {'run':>9} {'--tier jit':>11} {'ratio':>7} {'more':>9}")
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "benchmarks/programs/*.ks"))):
        name = os.path.basename(path)[:-3]
        if ONLY and ONLY not in name:
            continue
        rows.append(compare(name, path, 16))
    report(rows)


if __name__ == "__main__":
    main()
