#!/usr/bin/env python3
"""Classic programs written the way users write them: does the default `run` (tiers) fall
far behind `run --tier jit` on any?

Runs each program of benchmarks/programs/ both ways, alternately, best of N each (as
shapes.py does for generated loop nests), checks that both print the same, and prints
both times, their ratio and their difference; then the worst program. The programs were
written for this benchmark, not tuned for the tiers: recursion over arrays, while loops
of short unpredictable runs, helpers called from nests, strings, loops at the top level,
backtracking, a queue, hash probing with fmod, output by putchard.
Target (issue 31, as for the shapes): the worst is at most 1.25x, or at most 20 ms more
than `--tier jit`.

Builds the release binary first, unless KALEIDOSCOPE_TOOL names the binary to measure.
"""
import glob
import os

from shapes import ROOT, build_unless_given, compare, parser, report

EXAMPLES = """examples:
  benchmarks/programs.py --repeat 5             all the programs, best of 5
  benchmarks/programs.py --only sort            bubble sort, quicksort and merge sort"""


def main():
    arguments = parser(__doc__, EXAMPLES, "programs").parse_args()
    os.chdir(ROOT)
    build_unless_given()
    print(f"best of {arguments.repeat}; whole-process wall time\n")
    print(f"{'program':<16} {'run':>9} {'--tier jit':>11} {'ratio':>7} {'more':>9}")
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "benchmarks/programs/*.ks"))):
        name = os.path.basename(path)[:-3]
        if arguments.only and arguments.only not in name:
            continue
        rows.append(compare(name, path, 16, arguments.repeat))
    report(rows)


if __name__ == "__main__":
    main()
