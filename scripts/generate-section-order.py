#!/usr/bin/env python3
"""Regenerates build-support/section-order.txt, the link order of the release tool's start-up
code and data (docs/DESIGN.md, "Linking"; docs/BENCHMARKS.md, "Start-up, third pass").

The tool is a 136 MB static link of LLVM in which every function and data object has its own
section. Left in archive order, the few megabytes a `run` touches are spread over the whole
file, and every first touch of a page is a page fault. The ordering file lists, for gold's
--section-ordering-file:

  - the static constructors (`.text.startup`), which run before `main` in every process;
  - every function the profiled commands execute, as `.text.<symbol>`, found with callgrind.

(C++ type_info objects used to be gathered too, while each held a pointer into libstdc++.so
that the loader wrote at start-up; libstdc++ is now linked statically and nothing writes them.)

Gold gathers the listed sections, in this order, after the unlisted ones of the same output
section; names it does not find are ignored, so a stale file costs speed, never correctness.

Usage: scripts/generate-section-order.py   (from anywhere; needs valgrind; takes about a minute)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "build-support/section-order.txt")
PROGRAMS = os.path.join(ROOT, "Tests/EndToEndTests/Programs")

# What users run most: programs of every tutorial chapter through the JIT, plus `check`.
WORKLOADS = [
    ["run", os.path.join(ROOT, "examples/mandelbrot.ks")],
    # Recursion, and a counted loop called with a constant: inlined, its `double` counter
    # becomes an integer one (what most loops of real programs go through).
    ["run", os.path.join(ROOT, "examples/fib.ks")],
    ["run", os.path.join(PROGRAMS, "mutable_variables.ks")],
    ["run", os.path.join(PROGRAMS, "loops.ks")],
    ["run", os.path.join(PROGRAMS, "libm.ks")],
    ["run", os.path.join(PROGRAMS, "operators.ks")],
    ["check", os.path.join(ROOT, "examples/mandelbrot.ks")],
]

# Sections gathered whatever the profile says (see the module comment).
ALWAYS = [".text.startup"]

FUNCTION = re.compile(r"^c?fn=\((\d+)\)(?: (.+))?$")
OBJECT = re.compile(r"^c?ob=\((\d+)\)(?: (.+))?$")


def executed_functions(profile, binary):
    """Names of the functions of `binary` that a callgrind profile saw run."""
    objects, functions, seen = {}, {}, set()
    current_object = None
    with open(profile) as lines:
        for line in lines:
            line = line.rstrip("\n")
            match = OBJECT.match(line)
            if match:
                number, name = match.groups()
                if name:
                    objects[number] = name
                if line.startswith("ob="):
                    current_object = objects.get(number)
                continue
            match = FUNCTION.match(line)
            if match:
                number, name = match.groups()
                if name:
                    functions[number] = name
                if line.startswith("fn=") and current_object == binary:
                    seen.add(functions[number])
    return seen


def section_names(symbol):
    """The names of the sections that may hold `symbol`'s code. A C++ complete-object
    constructor or destructor (`C1`, `D1`) is usually an alias of the base-object one (`C2`,
    `D2`), whose section holds the code: callgrind reports the alias, and a section named after
    it does not exist. Names that match no section are harmless."""
    names = {symbol}
    for alias, base in (("C1E", "C2E"), ("D1E", "D2E")):
        if alias in symbol:
            names.add(symbol.replace(alias, base))
    return names


def main():
    subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp()
    # Callgrind cannot read the tool's DWARF 5; the symbol table is all it needs.
    binary = os.path.join(work, "kaleidoscope")
    subprocess.run(["objcopy", "--strip-debug", os.path.join(ROOT, ".build/release/kaleidoscope"), binary], check=True)
    executed = set()
    for index, arguments in enumerate(WORKLOADS):
        profile = os.path.join(work, f"callgrind.{index}")
        print("profiling:", " ".join(arguments), file=sys.stderr)
        subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--compress-pos=no",
                        f"--callgrind-out-file={profile}", binary] + arguments,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        executed |= executed_functions(profile, binary)
    # Sorted, so that regenerating the file gives a readable diff; within the gathered block the
    # order matters little (callgrind's is not the order of execution either).
    # Code without a symbol shows as its address, which names no section.
    names = {variant for name in executed if not name.startswith("0x") for variant in section_names(name)}
    sections = sorted(f".text.{name}" for name in names)
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w") as out:
        out.write("\n".join(ALWAYS + sections) + "\n")
    print(f"wrote {len(sections)} functions to {os.path.relpath(OUTPUT, ROOT)}", file=sys.stderr)
    # SwiftPM does not know the link depends on the file: link again.
    os.remove(os.path.join(ROOT, ".build/release/kaleidoscope"))
    subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
