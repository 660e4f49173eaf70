#!/usr/bin/env python3
"""Generates large, valid Kaleidoscope programs for the benchmarks.

    generate.py frontend SIZE_MB   thousands of functions with loops, vars, calls and user
                                   operators, until the text reaches SIZE_MB megabytes
    generate.py compile N          N functions (var blocks, arithmetic, ifs, calls among
                                   them); every 50th is called at top level
    generate.py tiers VARIANT      a compile-bound program for tiered execution: about 2 MB
                                   of functions of `var`/`if`/arithmetic statements, some
                                   reachable, each called once. VARIANT: shape (2,000
                                   functions of 20 statements, 400 reachable), big (1,000 of
                                   40), reach (all 2,000 reachable), loops (every tenth with
                                   a 300-iteration loop), hot (a helper called 10^5 times)
"""
import argparse
import random
import sys

EXAMPLES = """examples:
  benchmarks/generate.py frontend 12 > /tmp/big.ks
  benchmarks/generate.py compile 2000 > /tmp/compile.ks
  benchmarks/generate.py tiers hot > /tmp/hot.ks"""
VARIANTS = ["shape", "big", "reach", "loops", "hot"]


def function(rng, index, callees):
    """One function in the subset of the language the C++ reference also accepts: no `/`,
    no forward references, space-separated parameters. Calls recurse on `a - 1`, so a call
    tree is at most `a` levels deep."""
    name = f"f{index}"
    calls = " + ".join(f"{callee}(a - 1, b)" for callee in callees) or "0"
    return (
        f"def {name}(a b)\n"
        f"  var s = 0, t = a * 2.5 + b in\n"
        f"    (for i = 0, i < 8, 1 in\n"
        f"      s = s + (if i < a then t * (i + 1) else t - i * {rng.randint(1, 99)}) ~ b) :\n"
        f"    (if a < 1 then s else s + ({calls})) :\n"
        f"    s ~ t\n"
    )


def frontend(size_mb):
    rng = random.Random(42)
    parts = [
        "def binary : 1 (x y) y\n",
        "def binary ~ 15 (x y) x * 0.5 + y\n",
        "def unary !(v) if v then 0 else 1\n",
    ]
    size = sum(map(len, parts))
    index = 0
    while size < size_mb * 1_000_000:
        callees = [f"f{rng.randrange(index)}" for _ in range(2)] if index > 2 else []
        text = function(rng, index, callees)
        parts.append(text)
        size += len(text)
        index += 1
    parts.append(f"f{index - 1}(3, 2)\n")
    return "".join(parts)


def compile_program(count):
    rng = random.Random(7)
    parts = ["def binary : 1 (x y) y\n", "def binary ~ 15 (x y) x * 0.5 + y\n"]
    for index in range(count):
        callees = [f"f{rng.randrange(index)}" for _ in range(2)] if index > 2 else []
        parts.append(function(rng, index, callees))
        # Padding to keep the average function near 1 KB, as in the 2 MB / 2,000.
        parts.append(f"# {'-' * 700}\n")
        if index % 50 == 49:
            parts.append(f"f{index}(3, {index % 7})\n")
    return "".join(parts)


def statement(rng):
    """One statement of a tiers program, over the locals x, y and z."""
    k = rng.randint(1, 9)
    return rng.choice([
        f"x = x * 0.5 + y - {k}",
        f"y = y * 0.25 + z * 0.5 + {k}",
        f"z = z + (if x < y then x - {k} else y + {k})",
        f"(if z < {k * 10} then y = y + 1 else x = x - 1)",
        f"z = z * 0.5 + x * 0.25 - y * 0.125",
    ])


def tiers_function(rng, index, statements, callee, loop, helper):
    """A function of `statements` statements; it calls `callee` (an earlier function) once,
    and with `loop` runs its statements in a loop."""
    lines = [statement(rng) for _ in range(statements)]
    if helper:
        lines.append("z = z + h(x)")
    body = " :\n    ".join(f"({line})" for line in lines)
    if loop:
        body = f"(for i = 0, i < {loop} in\n    {body}) :\n    0"
    call = f" + {callee}(z, y)" if callee else ""
    return (
        f"def g{index}(a b)\n"
        f"  var x = a + 1, y = b * 2, z = 0 in\n"
        f"    {body} :\n"
        f"    z{call}\n"
    )


def tiers_program(variant):
    """2,000 (or 1,000) functions; chains of 20 reachable ones, each calling the one five (or
    one) before it, started at top level, so every reachable function runs once."""
    rng = random.Random(11)
    count, statements, stride = {"big": (1000, 40, 2), "reach": (2000, 20, 1)}.get(variant, (2000, 20, 5))
    parts = [
        "def binary : 1 (x y) y\n",
        "def h(v) var s = 0 in (for j = 0, j < 4 in s = s + v * j) : s\n",
    ]
    for index in range(count):
        reachable = index % stride == 0
        callee = f"g{index - stride}" if reachable and index % (20 * stride) != 0 else None
        loop = 300 if variant == "loops" and index % 10 == 0 else 0
        helper = variant == "hot" and reachable
        parts.append(tiers_function(rng, index, statements, callee, loop, helper))
        if reachable and index % (20 * stride) == 19 * stride:
            parts.append(f"g{index}(1, 2)\n")
    if variant == "hot":
        parts.append("def spin(n) var t = 0 in (for k = 0, k < n in t = t + h(k)) : t\n")
        parts.append("spin(100000)\n")
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["frontend", "compile", "tiers"], help="what to generate")
    parser.add_argument("amount", metavar="SIZE_MB|N|VARIANT", help="its size, or its variant: " + ", ".join(VARIANTS))
    arguments = parser.parse_args()
    try:
        if arguments.kind == "tiers":
            if arguments.amount not in VARIANTS:
                parser.error(f"no variant {arguments.amount!r}: choose from {', '.join(VARIANTS)}")
            sys.stdout.write(tiers_program(arguments.amount))
        elif arguments.kind == "frontend":
            size = float(arguments.amount)
            if not size > 0:
                parser.error("SIZE_MB must be more than 0")
            sys.stdout.write(frontend(size))
        else:
            count = int(arguments.amount)
            if count < 1:
                parser.error("N must be at least 1")
            sys.stdout.write(compile_program(count))
    except ValueError:
        parser.error(f"{arguments.amount!r} is not a number")


if __name__ == "__main__":
    main()
