#!/usr/bin/env python3
"""The playground as a cluster (issue 34, SPEC §9): requests a second and p99 latency through
HAProxy, measured with wrk (Debian's) against `scripts/cluster.sh` clusters of the release
build, with the rate limit off (every request comes from loopback):

- a cached example run (the same request again and again) through the balancer of 3
  replicas; the baseline, in the same run, is the same load on one replica directly;
- uncached small runs (each source new, so each is a sandboxed process) with 1 and with 3
  replicas behind the balancer.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "cluster.sh")

# wrk's Lua: POSTs to /api/run; a new program each time when `unique`; counts answers
# that are not 200 over all threads.
WRK_SCRIPT = """
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  failures = 0
  counter = 0
end
function request()
  counter = counter + 1
  local source = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\\\\nfib(20)\\\\n"
  if UNIQUE then
    source = string.format("def f(x) x * %d\\\\nf(3)\\\\n", id * 10000000 + counter)
  end
  return wrk.format("POST", "/api/run", {["Content-Type"] = "application/json"},
                    '{"source": "' .. source .. '"}')
end
function response(status, headers, body)
  if status ~= 200 then failures = failures + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("failures") end
  io.write(string.format("failures: %d\\n", total))
end
"""


class Cluster:
    def __init__(self, replicas, port):
        self.directory = tempfile.mkdtemp(prefix="ks-cluster-bench-")
        os.chmod(self.directory, 0o755)
        self.environment = dict(os.environ, KALEIDOSCOPE_CLUSTER_DIR=os.path.join(self.directory, "state"))
        self.url = self.script("up", "--replicas", str(replicas), "--port", str(port), "--",
                               "--rate-limit", "0").strip()

    def script(self, *arguments):
        return subprocess.run([SCRIPT, *arguments], env=self.environment, check=True, capture_output=True,
                              text=True).stdout

    def replica_urls(self):
        return [f"http://127.0.0.1:{line.split()[1]}/" for line in self.script("ps").splitlines()]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.script("down")


def wrk(url, unique, seconds, connections):
    """Requests a second, p99 in ms, and the count of answers that were not 200."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(("UNIQUE = true\n" if unique else "UNIQUE = false\n") + WRK_SCRIPT)
        script.flush()
        output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script.name,
                                 url.rstrip("/") + "/api/run"], check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    failures = int(re.search(r"failures: (\d+)", output).group(1))
    errors = re.search(r"Socket errors: .*", output)
    return rate, p99, failures + (1 if errors else 0), errors.group(0) if errors else ""


def report(name, result, target):
    rate, p99, failures, errors = result
    print(f"{name}: {rate:,.0f} requests/s, p99 {p99:.1f} ms, {failures} not 200 {errors} (target {target})")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  benchmarks/cluster.py
  benchmarks/cluster.py --seconds 30 --connections 32""")
    parser.add_argument("--seconds", type=int, default=10, help="how long wrk runs each load (default: 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk's connections for cached runs (default: 16)")
    arguments = parser.parse_args()
    port = 8460
    with Cluster(3, port) as cluster:
        wrk(cluster.url, False, 1, 4)  # every replica computes the example once, or reads it
        balanced = wrk(cluster.url, False, arguments.seconds, arguments.connections)
        direct = wrk(cluster.replica_urls()[0], False, arguments.seconds, arguments.connections)
        report("cached example, 3 replicas through HAProxy", balanced, ">= 2,000/s, p99 < 50 ms")
        report("baseline: the same on one replica directly", direct, "")
        print(f"the balancer gives {balanced[0] / direct[0]:.2f}x the requests/s of one replica")
        uncached3 = wrk(cluster.url, True, arguments.seconds, 8)
    with Cluster(1, port) as cluster:
        uncached1 = wrk(cluster.url, True, arguments.seconds, 8)
    report("uncached small runs, 1 replica, 8 connections", uncached1, ">= 60/s, p99 < 250 ms")
    report("uncached small runs, 3 replicas, 8 connections", uncached3, ">= 60/s, p99 < 250 ms")
    print(f"3 replicas give {uncached3[0] / uncached1[0]:.2f}x the uncached runs/s of 1 on this machine")


if __name__ == "__main__":
    sys.exit(main())
