#!/usr/bin/env python3
"""Back-end benchmarks, each reported as a ratio against a baseline measured in the same run:

  runtime   fib(40), a 2*10^8-iteration loop and the same loop written with `while`,
            `kaleidoscope run` against clang -O2 twins
  compile   a generated ~2 MB program of 2,000 functions, `kaleidoscope run` against the
            LLVM C++ reference (chapter 7), built by ../shared/peers/build-reference.sh
  start-up  `run` of a one-line file against the reference
  tiers     the programs of `generate.py tiers VARIANT` (compile-bound: ~1.8 MB of
            functions that each run once, in five shapes), `run` against the reference, and
            `run --tier jit` for comparison
  native    executables from `kaleidoscope build -O2`: fib(40), the loop and a
            one-line program's start-up, against the clang -O2 C twins

  interp    fib(30) by the reference interpreter against the JIT (both
            `kaleidoscope run`, whole process)

  data      array programs, `kaleidoscope run` (bounds checks included) against clang -O2
            C twins: a sieve of Eratosthenes up to 2*10^7 over one local array and a heap
            sort of 3*10^6 numbers in a global array (twins that index double arrays with
            doubles converted to integers, unchecked); and the classic small programs as C
            programmers write them (int indices, #define sizes): n-body, spectral-norm,
            fannkuch-redux, a matrix product, a Mandelbrot over an array, a Brainfuck
            interpreter, a bubble sort and an insertion sort. Each program's numbers must be its twin's (to 1e-12). Each is
            also run again with the machine code its first run left in the cache
            (`run NAME, cached`).

Every `run` compiles, as a program's first run does (KALEIDOSCOPE_CACHE=off), except the
data section's cached rows, whose cache the script fills first.

Builds the release binary first.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build/release/kaleidoscope")
TWINS = os.path.join(ROOT, "benchmarks/twins")
SECTIONS = ["jit", "compile", "tiers", "native", "interp", "data"]
EXAMPLES = """examples:
  benchmarks/backend.py                              every section, best of 3
  benchmarks/backend.py --only data --repeat 5       the array programs against their twins
  benchmarks/backend.py --only tiers                 the compile-bound programs"""


# The array programs of the data section, each with a C twin in benchmarks/twins/.
DATA = [
    "sieve", "heapsort", "nbody", "spectral-norm", "fannkuch", "matmul", "mandelbrot-array", "brainfuck", "bubblesort",
    "insertion",
]


def same_numbers(name, ours, twin):
    """Checks that the twin's numbers appear, in order, among what ours prints (which also
    prints the values of its other top-level expressions)."""
    def numbers(command):
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        return [float(word) for word in output.split()]
    remaining = iter(numbers(ours))
    for expected in numbers(twin):
        if not any(abs(value - expected) <= 1e-12 * max(1.0, abs(expected)) for value in remaining):
            sys.exit(f"{name}: the twin printed {expected}, which the program did not")


def arguments():
    """The command line; --help shows the module's description and the examples."""
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs of each command (default: 3)")
    parser.add_argument("--only", choices=SECTIONS, help="run one section")
    parsed = parser.parse_args()
    if parsed.repeat < 1:
        parser.error("--repeat must be at least 1")
    return parsed


def wanted(section):
    return ARGUMENTS.only is None or ARGUMENTS.only == section


def best(command, stdin_path=None):
    """Best wall time of --repeat runs; of 300 runs when one run takes under 20 ms, because
    millisecond start-ups are dominated by scheduling noise."""
    times = []
    while len(times) < (300 if times and min(times) < 0.02 else ARGUMENTS.repeat):
        stdin = open(stdin_path) if stdin_path else subprocess.DEVNULL
        start = time.perf_counter()
        subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def best_pair(ours, baseline, environment=None):
    """Best times of two commands measured alternately, so that both see the same machine;
    `environment`, if given, is the first one's."""
    a, b = [], []
    while len(a) < (300 if a and min(a) < 0.02 else ARGUMENTS.repeat):
        a.append(best_once(ours, environment))
        b.append(best_once(baseline))
    return min(a), min(b)


def best_once(command, environment=None):
    start = time.perf_counter()
    subprocess.run(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        env=environment)
    return time.perf_counter() - start


def report(name, ours, baseline, baseline_name):
    print(f"{name:<28} {ours * 1000:9.1f} ms   {baseline_name:<22} {baseline * 1000:9.1f} ms   ratio {ours / baseline:6.3f}x")


def main():
    os.chdir(ROOT)
    subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], check=True, stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp()
    os.environ["KALEIDOSCOPE_CACHE"] = "off"
    cached = dict(os.environ, KALEIDOSCOPE_CACHE=os.path.join(work, "cache"))
    print(f"best of {ARGUMENTS.repeat}; whole-process wall time\n")

    twins = {}
    for name in ["fib", "loop", "while", "one"] + DATA:
        twins[name] = os.path.join(work, name + "-c")
        subprocess.run(["clang", "-O2", "-o", twins[name], os.path.join(TWINS, f"{name}.c"), "-lm"], check=True)

    if wanted("jit"):
        for name in ["fib", "loop", "while"]:
            ours, c = best_pair([TOOL, "run", os.path.join(TWINS, f"{name}.ks")], [twins[name]])
            report(f"run {name}", ours, c, "clang -O2 C twin")

    if wanted("data"):
        for name in DATA:
            program = os.path.join(TWINS, f"{name}.ks")
            same_numbers(name, [TOOL, "run", program], [twins[name]])
            ours, c = best_pair([TOOL, "run", program], [twins[name]])
            report(f"run {name}", ours, c, "clang -O2 C twin")
            # Runs again after one that fills the cache (a run may still compile a module
            # the first did not make, when the compiler's timing differs).
            best_once([TOOL, "run", program], cached)
            ours, c = best_pair([TOOL, "run", program], [twins[name]], cached)
            report(f"run {name}, cached", ours, c, "clang -O2 C twin")

    if wanted("native"):
        for name in ["fib", "loop", "one"]:
            binary = os.path.join(work, name + "-ks")
            subprocess.run([TOOL, "build", "-O2", os.path.join(TWINS, f"{name}.ks"), "-o", binary], check=True)
            ours, c = best_pair([binary], [twins[name]])
            report(f"built {name}", ours, c, "clang -O2 C twin")

    if wanted("interp"):
        fib30 = os.path.join(TWINS, "fib30.ks")
        interpreted, jitted = best_pair([TOOL, "run", "--tier", "interp", fib30], [TOOL, "run", "--tier", "jit", fib30])
        report("interpreter fib(30)", interpreted, jitted, "JIT -O2")

    if not wanted("compile") and not wanted("tiers"):
        return

    reference = subprocess.run([os.path.join(ROOT, "../shared/peers/build-reference.sh")], capture_output=True, text=True).stdout.strip()
    if not reference or not os.path.exists(reference):
        print("reference not available: ../shared/peers/build-reference.sh failed")
        return

    def generated(name, *arguments):
        program = os.path.join(work, name + ".ks")
        with open(program, "w") as out:
            subprocess.run([sys.executable, "benchmarks/generate.py", *arguments], stdout=out, check=True)
        return program

    if wanted("compile"):
        program = generated("compile", "compile", "2000")
        size = os.path.getsize(program)
        ref = best([reference], stdin_path=program)
        ours = best([TOOL, "run", "--for-semantics=legacy", program])
        report(f"compile+run {size / 1e6:.1f} MB", ours, ref, "C++ reference (ch. 7)")
        one = os.path.join(work, "one.ks")
        with open(one, "w") as out:
            out.write("1 + 2\n")
        report("start-up (one line)", best([TOOL, "run", one]), best([reference], stdin_path=one), "C++ reference (ch. 7)")

    if wanted("tiers"):
        for variant in ["shape", "big", "reach", "loops", "hot"]:
            program = generated("tiers-" + variant, "tiers", variant)
            ref = best([reference], stdin_path=program)
            report(f"tiers {variant}", best([TOOL, "run", program]), ref, "C++ reference (ch. 7)")
            report(f"tiers {variant}, --tier jit", best([TOOL, "run", "--tier", "jit", program]), ref, "C++ reference (ch. 7)")


if __name__ == "__main__":
    ARGUMENTS = arguments()
    main()
