#!/usr/bin/env python3
"""Loop-nest shapes: does the default `run` (tiers) ever fall far behind `run --tier jit`?

Generates one program per shape and runs it both ways, alternately, best of N each:

  depth     1 to 4 nested loops
  kind      for, or while (with its own counter)
  place     in a function called once, in a function called often (200 calls sharing
            the work), or at the top level
  bound     each loop's bound from a parameter (the top level: a `var ... in` local), a
            global, or an array's length; or, in a nest, triangular: each inner loop runs
            up to the counter of the loop around it, so its runs start short and grow
            (an insertion sort's shape)
  arrays    the innermost body reads one array and writes another

Every shape does about the same number of innermost iterations (--work), so each takes tens
of milliseconds compiled. For each it prints both times, their ratio and their difference;
then the worst shape. Target (issue 31): the worst is at most 1.25x, or at most 20 ms
more than `--tier jit`.

Every run compiles, as a program's first run does: the machine-code cache is off
(KALEIDOSCOPE_CACHE=off), or `run` would link the code of the runs before it.

Builds the release binary first, unless KALEIDOSCOPE_TOOL names the binary to measure.
"""
import argparse
import itertools
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", os.path.join(ROOT, ".build/release/kaleidoscope"))
# Inherited by every run this script (or programs.py, which imports it) makes.
os.environ["KALEIDOSCOPE_CACHE"] = "off"
CALLS_OFTEN = 200
EXAMPLES = """examples:
  benchmarks/shapes.py                          all 90 shapes, best of 3
  benchmarks/shapes.py --only "depth 3 while"   the shapes whose name contains the text
  KALEIDOSCOPE_TOOL=/tmp/old/kaleidoscope benchmarks/shapes.py --repeat 5"""


def parser(description, examples, things):
    """A command line with the options this benchmark and programs.py share; --help shows
    `description` and `examples`. `things` names what --only picks among."""
    made = argparse.ArgumentParser(
        description=description, epilog=examples, formatter_class=argparse.RawDescriptionHelpFormatter)
    made.add_argument("--repeat", type=positive, default=3, metavar="N", help="runs each way (default: 3)")
    made.add_argument("--only", metavar="TEXT", help=f"only the {things} whose name contains TEXT")
    return made


def positive(text):
    """An argument that must be a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def build_unless_given():
    """Builds the release binary, unless KALEIDOSCOPE_TOOL names the one to measure."""
    if "KALEIDOSCOPE_TOOL" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], check=True, stdout=subprocess.DEVNULL)


def trip_count(depth, calls, work, triangular=False):
    """Iterations of each loop (of the outermost, in a triangular nest, whose `depth` loops
    run about n^depth / depth! times), so that `calls` runs of the nest do about `work`."""
    scale = math.factorial(depth) if triangular else 1
    return max(2, round((work * scale / calls) ** (1 / depth)))


def nest(depth, kind, bound_of, body):
    """`depth` loops around `body`; `bound_of(level)` is each loop's bound expression."""
    text = body
    for level in reversed(range(depth)):
        var = f"i{level}"
        bound = bound_of(level)
        if kind == "for":
            text = f"(for {var} = 0, {var} < {bound} in\n{text})"
        else:
            text = f"(var {var} = 0 in (while {var} < {bound} in\n({text}) : ({var} = {var} + 1)))"
    return text


def program(depth, kind, place, bound, work):
    calls = CALLS_OFTEN if place == "often" else 1
    n = trip_count(depth, calls, work, triangular=bound == "triangular")
    lines = ["def binary : 1 (x y) y", "var total = 0", f"var source[{n}], sink[{n}]", f"var limit = {n}"]
    lines.append(f"for k = 0, k < {n} in source[k] = k * 0.5")
    inner = f"i{depth - 1}"
    # Reads one array, writes another, and keeps a sum that depends on every index.
    body = f"(sink[{inner}] = source[{inner}] + i0) : (total = total + sink[{inner}] * 0.001)"
    if bound == "global":
        bound_of = lambda level: "limit"
    elif bound == "length":
        bound_of = lambda level: "len(source)"
    elif bound == "triangular":
        bound_of = lambda level: "n" if level == 0 else f"i{level - 1} + 1"
    else:
        bound_of = lambda level: "n"
    loops = nest(depth, kind, bound_of, body)
    if place == "top":
        # A parameter has no place at the top level: a local stands for it.
        lines.append(f"var n = {n} in {loops}" if bound in ("parameter", "triangular") else loops)
    else:
        lines.append(f"def work(n)\n{loops}")
        lines.append(f"def repeat(k) if k < {calls} then work({n}) : repeat(k + 1) else 0")
        lines.append("repeat(0)")
    lines.append("total")
    return "\n".join(lines) + "\n"


def best_pair(a_command, b_command, repeat):
    a, b = [], []
    for _ in range(repeat):
        for command, times in ((a_command, a), (b_command, b)):
            start = time.perf_counter()
            subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
    return min(a), min(b)


def main():
    command_line = parser(__doc__, EXAMPLES, "shapes")
    command_line.add_argument(
        "--work", type=positive, default=8_000_000, metavar="ITERATIONS",
        help="innermost iterations of each shape (default: 8,000,000)")
    arguments = command_line.parse_args()
    os.chdir(ROOT)
    build_unless_given()
    work = tempfile.mkdtemp()
    shapes = [
        shape
        for shape in itertools.product(
            [1, 2, 3, 4], ["for", "while"], ["once", "often", "top"], ["parameter", "global", "length", "triangular"])
        if shape[0] > 1 or shape[3] != "triangular"
    ]
    print(f"best of {arguments.repeat}; about {arguments.work:,} innermost iterations each; whole-process wall time\n")
    print(f"{'shape':<34} {'run':>9} {'--tier jit':>11} {'ratio':>7} {'more':>9}")
    rows = []
    for depth, kind, place, bound in shapes:
        name = f"depth {depth} {kind} {place} {bound}"
        if arguments.only and arguments.only not in name:
            continue
        path = os.path.join(work, name.replace(" ", "-") + ".ks")
        with open(path, "w") as file:
            file.write(program(depth, kind, place, bound, arguments.work))
        rows.append(compare(name, path, 34, arguments.repeat))
    report(rows)


def compare(name, path, width, repeat):
    """Runs `path` with `run` and `run --tier jit` (which must print the same), best of
    `repeat` each, prints a row of `width` for it, and returns how far past the target it is, with its name and figures."""
    outputs = {tier: subprocess.run([TOOL, "run", "--tier", tier, path], capture_output=True, text=True).stdout for tier in ("auto", "jit")}
    if outputs["auto"] != outputs["jit"]:
        sys.exit(f"{name}: the tiers printed {outputs['auto']!r}, --tier jit {outputs['jit']!r}")
    tiered, jitted = best_pair([TOOL, "run", path], [TOOL, "run", "--tier", "jit", path], repeat)
    ratio, more = tiered / jitted, (tiered - jitted) * 1000
    print(f"{name:<{width}} {tiered * 1000:7.1f} ms {jitted * 1000:8.1f} ms {ratio:6.2f}x {more:+7.1f} ms")
    # The target is met if either bound holds; the worst is the one furthest past both.
    return (min(ratio / 1.25, more / 20), name, ratio, more)


def report(rows):
    """Prints the worst of the rows `compare` returned, and whether it meets the target."""
    if rows:
        _, name, ratio, more = max(rows)
        verdict = "meets" if ratio <= 1.25 or more <= 20 else "MISSES"
        print(f"\nworst: {name}: {ratio:.2f}x, {more:+.1f} ms ({verdict} the target: <= 1.25x or <= 20 ms more)")


if __name__ == "__main__":
    main()
