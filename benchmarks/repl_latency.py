#!/usr/bin/env python3
"""REPL latency (issues 6 and 23): from Enter to the printed value, through a pseudo-terminal,
as a person sees it, for a small expression, a new 20-line definition, and such a definition
followed at once by a call, at -O2, in both tiers (`--tier jit` is the baseline).

The time includes the pseudo-terminal round trip (pexpect polls the terminal); the
REPL's own figure, `:time on`, is printed alongside for the same inputs.
"""
import argparse
import os
import re
import statistics
import tempfile
import time

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build/release/kaleidoscope")
EXAMPLES = """examples:
  swift build -c release --product kaleidoscope && benchmarks/repl_latency.py
  benchmarks/repl_latency.py --repeat 100"""
PROMPT = "ready> "
TIMES = r"\(compile ([0-9.]+) ms, run ([0-9.]+) ms\)"


def internal(match):
    """Seconds the REPL itself reports (`:time on`): compiling plus running."""
    return (float(match.group(1)) + float(match.group(2))) / 1000


def definition(index):
    lines = [f"def body{index}(x)", "  var a = x, b = 1, c = 2 in ("]
    for step in range(17):
        lines.append(f"    a = a * 1.0001 + b - c / (x + {step + 1}) :")
    lines.append("    a)")
    return lines


def measure(tier):
    """The three latencies, and the REPL's own figures, in a session of the given tier."""
    env = dict(os.environ, NO_COLOR="1", XDG_STATE_HOME=tempfile.mkdtemp())
    arguments = ["repl", os.environ.get("KS_OPT", "-O2"), "--tier", tier]
    child = pexpect.spawn(TOOL, arguments, env=env, encoding="utf-8", timeout=30)
    child.delaybeforesend = None  # pexpect sleeps 50 ms before each send by default
    child.expect_exact(PROMPT)
    time.sleep(0.3)
    child.sendline("def binary : 1 (x y) y")
    child.expect_exact(PROMPT)
    child.sendline(":time on")
    child.expect_exact(PROMPT)

    expression, expression_internal = [], []
    for index in range(ARGUMENTS.repeat):
        start = time.perf_counter()
        child.sendline(f"{index} + 2 * 3")
        child.expect_exact(f"{index + 6}\r\n")
        expression.append(time.perf_counter() - start)
        child.expect(TIMES)
        expression_internal.append(internal(child.match))
        child.expect_exact(PROMPT)

    define, define_internal = [], []
    for index in range(ARGUMENTS.repeat):
        lines = definition(index)
        for text in lines[:-1]:
            child.sendline(text)
            child.expect_exact("  ...> ")
        start = time.perf_counter()
        child.sendline(lines[-1])
        child.expect(TIMES)
        define.append(time.perf_counter() - start)
        define_internal.append(internal(child.match))
        child.expect_exact(PROMPT)

    # A definition, then at once a call of it (as a paste would send them).
    define_call = []
    for index in range(ARGUMENTS.repeat):
        lines = definition(ARGUMENTS.repeat + index)
        for text in lines[:-1]:
            child.sendline(text)
            child.expect_exact("  ...> ")
        start = time.perf_counter()
        child.sendline(lines[-1])
        child.sendline(f"body{ARGUMENTS.repeat + index}(1) * 0 + {index}")
        child.expect_exact(f"\r\n{index}\r\n")
        define_call.append(time.perf_counter() - start)
        child.expect(TIMES)
        child.expect_exact(PROMPT)

    child.sendeof()
    return [
        ("small expression", expression, expression_internal, 5),
        ("20-line definition", define, define_internal, 20),
        ("definition + call", define_call, None, 20),
    ]


def main():
    for tier in ["jit", "auto"]:
        print(f"--tier {tier}")
        for name, seen, reported, target in measure(tier):
            inside = f"  (in the REPL: {statistics.median(reported) * 1000:6.2f} ms)" if reported else " " * 30
            print(
                f"  {name:<20} Enter to output: median {statistics.median(seen) * 1000:6.2f} ms"
                f"{inside}   target < {target} ms"
            )


def arguments():
    """The command line; --help shows the module's description and the examples."""
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30, metavar="N", help="inputs of each kind (default: 30)")
    parsed = parser.parse_args()
    if parsed.repeat < 1:
        parser.error("--repeat must be at least 1")
    return parsed


if __name__ == "__main__":
    ARGUMENTS = arguments()
    main()
