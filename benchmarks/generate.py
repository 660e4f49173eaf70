#!/usr/bin/env python3
"""Generates large, valid Kaleidoscope programs for the benchmarks.

    generate.py frontend SIZE_MB   thousands of functions with loops, vars, calls and user
                                   operators, until the text reaches SIZE_MB megabytes
    generate.py compile N          N functions (var blocks, arithmetic, ifs, calls among
                                   them); every 50th is called at top level
"""
import random
import sys


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


if __name__ == "__main__":
    kind, amount = sys.argv[1], sys.argv[2]
    sys.stdout.write(frontend(float(amount)) if kind == "frontend" else compile_program(int(amount)))
