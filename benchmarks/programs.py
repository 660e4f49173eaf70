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
import sys

from shapes import ONLY, REPEAT, ROOT, TOOL, best_pair


def main():
    os.chdir(ROOT)
    if "KALEIDOSCOPE_TOOL" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], check=True, stdout=subprocess.DEVNULL)
    print(f"best of {REPEAT}; whole-process wall time\n")
    print(f"{'program':<16} {'run':>9} {'--tier jit':>11} {'ratio':>7} {'more':>9}")
    worst = None
    for path in sorted(glob.glob(os.path.join(ROOT, "benchmarks/programs/*.ks"))):
        name = os.path.basename(path)[:-3]
        if ONLY and ONLY not in name:
            continue
        outputs = {tier: subprocess.run([TOOL, "run", "--tier", tier, path], capture_output=True, text=True).stdout for tier in ("auto", "jit")}
        if outputs["auto"] != outputs["jit"]:
            sys.exit(f"{name}: the tiers printed {outputs['auto']!r}, --tier jit {outputs['jit']!r}")
        tiered, jitted = best_pair([TOOL, "run", path], [TOOL, "run", "--tier", "jit", path])
        ratio, more = tiered / jitted, (tiered - jitted) * 1000
        print(f"{name:<16} {tiered * 1000:7.1f} ms {jitted * 1000:8.1f} ms {ratio:6.2f}x {more:+7.1f} ms")
        badness = min(ratio / 1.25, more / 20)
        if worst is None or badness > worst[0]:
            worst = (badness, name, ratio, more)
    if worst:
        _, name, ratio, more = worst
        verdict = "meets" if ratio <= 1.25 or more <= 20 else "MISSES"
        print(f"\nworst: {name}: {ratio:.2f}x, {more:+.1f} ms ({verdict} the target: <= 1.25x or <= 20 ms more)")


if __name__ == "__main__":
    main()
