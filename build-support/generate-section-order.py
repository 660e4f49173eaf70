#!/usr/bin/env python3
"""Regenerates build-support/section-order.txt, the link order of the release tool's start-up
code (build-support/README.md).

The tool is a 136 MB static link of LLVM in which every function and data object has its own
section. Left in archive order, the few megabytes a `run` touches are spread over the whole
file, and every first touch of a page is a page fault that also maps the pages around it. The
ordering file lists, for gold's --section-ordering-file:

  - the static constructors (`.text.startup`), which run before `main` in every process;
  - every function the profiled commands execute, as `.text.<symbol>`, found with callgrind,
    those that every workload runs first.

(Data objects are not listed: gathering the ones a `run` touches left its page faults
unchanged, because the kernel already maps file-backed data 64 KB at a time and LLVM's
command-line options, most of the written data, are all touched anyway.)

Gold gathers the listed sections, in this order, after the unlisted ones of the same output
section; names it does not find are ignored, so a stale file costs speed, never correctness.

Usage: build-support/generate-section-order.py   (from anywhere; needs valgrind; takes about
five minutes)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "build-support/section-order.txt")
PROGRAMS = os.path.join(ROOT, "Tests/EndToEndTests/Programs")


def workloads():
    """What users run: every end-to-end program that runs to completion (with the options its
    `# RUN:` line gives), the examples, the benchmarks' programs, and `check` (the views
    are `view_workloads`). A program that ends in a runtime fault is left out: under
    valgrind the fault is valgrind's.

    The benchmarks' programs are here because they are the commonest shapes of real programs
    that the tests lack: a long loop accumulating into a variable goes through loop unrolling,
    strength reduction and instruction selection paths that no test program reaches. A
    program of that shape left out of the profile gains as much."""
    programs = sorted(name for name in os.listdir(PROGRAMS) if name.endswith(".ks")
                      and not os.path.exists(os.path.join(PROGRAMS, name[:-3] + ".err")))
    result = []
    for name in programs:
        path = os.path.join(PROGRAMS, name)
        with open(path) as source:
            options = next((line.split()[3:] for line in source if line.startswith("# RUN: run")), [])
        result.append(["run"] + options + [path])
    for path in ("examples/mandelbrot.ks", "examples/fib.ks", "benchmarks/twins/fib30.ks",
                 "benchmarks/twins/loop.ks", "benchmarks/twins/one.ks"):
        result.append(["run", os.path.join(ROOT, path)])
    result.append(["check", os.path.join(ROOT, "examples/mandelbrot.ks")])
    return result


def view_workloads():
    """The playground's panes of the examples, each a new process that compiles one example
    cold: IR and assembly at -O0 with debug information (as `build` writes them, the code of
    the sandboxed views, which valgrind cannot run under their seccomp filter), the
    control-flow graphs, the tokens and the tree. Ordered after everything `run` executes,
    so that a run's pages stay as they were and the views' own code lies together."""
    examples = [os.path.join(ROOT, "examples", name) for name in ("fib.ks", "mandelbrot.ks")]
    algorithms = os.path.join(ROOT, "examples/algorithms")
    examples += sorted(os.path.join(algorithms, name) for name in os.listdir(algorithms) if name.endswith(".ks"))
    result = []
    for path in examples:
        for emit in ("asm", "llvm-ir"):
            result.append(["build", "--emit", emit, "-O0", "-g", "-o", "/dev/null", path])
        result += [["cfg", path], ["tokens", path], ["ast", path]]
    return result


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
    # Valgrind cannot read the tool's DWARF 5; the symbol table is all it needs.
    binary = os.path.join(work, "kaleidoscope")
    subprocess.run(["objcopy", "--strip-debug", os.path.join(ROOT, ".build/release/kaleidoscope"), binary], check=True)
    # How many workloads run each function, and how many views.
    runs, views = {}, {}
    profiled = [(arguments, runs) for arguments in workloads()]
    profiled += [(arguments, views) for arguments in view_workloads()]
    for index, (arguments, counts) in enumerate(profiled):
        profile = os.path.join(work, f"callgrind.{index}")
        print("profiling:", " ".join(arguments), file=sys.stderr)
        subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--compress-pos=no",
                        f"--callgrind-out-file={profile}", binary] + arguments,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        for name in executed_functions(profile, binary):
            counts[name] = counts.get(name, 0) + 1
    # The code every workload runs first, then what fewer and fewer of them run: a process
    # faults the block in 64 KB at a time, so one that runs only the common code touches only
    # the front of the block. The views' code only they run comes after, in the same way.
    # Within a count, by name, so that a regenerated file diffs well. Code without a symbol
    # shows as its address, which names no section.
    named = (name for name in set(runs) | set(views) if not name.startswith("0x"))
    ordered = sorted(named, key=lambda name: (-runs.get(name, 0), -views.get(name, 0), name))
    sections, listed = list(ALWAYS), set()
    for name in ordered:
        for variant in sorted(section_names(name)):
            if variant not in listed:
                listed.add(variant)
                sections.append(f".text.{variant}")
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w") as out:
        out.write("\n".join(sections) + "\n")
    print(f"wrote {len(sections) - len(ALWAYS)} function sections to {os.path.relpath(OUTPUT, ROOT)}", file=sys.stderr)
    # SwiftPM does not know the link depends on the file: link again.
    os.remove(os.path.join(ROOT, ".build/release/kaleidoscope"))
    subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
