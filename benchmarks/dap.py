#!/usr/bin/env python3
"""The interpreter under `kaleidoscope dap` (issue 33): fib(30) with a breakpoint on a line
that is never reached, from configurationDone to the `exited` event, against `run --tier
interp` of the same program as a whole process, alternating, in the same run (release
build). The adapter's own start (initialize, launch) is not counted: an editor pays it once.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "kaleidoscope")
sys.path.insert(0, os.path.join(ROOT, "Tests", "Debugger"))
from dap_client import DAPClient  # noqa: E402

PROGRAM = """\
def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)
def never(x)
  x + 1
fib(30)
"""


def under_dap(path):
    client = DAPClient([TOOL, "dap"])
    try:
        client.request("initialize", {"adapterID": "kaleidoscope"})
        client.request("launch", {"program": path})
        client.wait_for_event("initialized")
        client.request("setBreakpoints", {"source": {"path": path}, "breakpoints": [{"line": 3}]})
        start = time.perf_counter()
        client.request("configurationDone")
        client.wait_for_event("exited", timeout=120)
        return time.perf_counter() - start
    finally:
        client.close()


def plain(path):
    start = time.perf_counter()
    subprocess.run([TOOL, "run", "--tier", "interp", path], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  benchmarks/dap.py
  benchmarks/dap.py --runs 21""")
    parser.add_argument("--runs", type=int, default=7, help="alternating runs of each (default: 7)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "fib.ks")
        with open(path, "w") as file:
            file.write(PROGRAM)
        dap, interp = [], []
        for _ in range(arguments.runs):
            interp.append(plain(path))
            dap.append(under_dap(path))
    ratio = statistics.median(dap) / statistics.median(interp)
    print(f"fib(30), a breakpoint never hit: dap {statistics.median(dap) * 1000:.1f} ms, run --tier interp "
          f"{statistics.median(interp) * 1000:.1f} ms (medians of {arguments.runs}) = {ratio:.2f}x (target <= 2x)")


if __name__ == "__main__":
    sys.exit(main())
