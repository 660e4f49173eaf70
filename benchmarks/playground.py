#!/usr/bin/env python3
"""Throughput and latency of `kaleidoscope serve` (release build) on loopback:

- small runs from 8 concurrent clients (each a keep-alive-free HTTP client in a thread):
  runs a second and the p50/p99 latency; the baseline, in the same run, is the same runs
  made one at a time with `kaleidoscope run --sandbox` (the sandbox's own cost);
- the tokens, tree, IR, assembly, passes and cfg views of every example, answered one at a
  time: median and worst per view; then each example's trace (the Step pane).
"""
import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "kaleidoscope")


def start_server(directory):
    log = open(os.path.join(directory, "server.log"), "w+")
    process = subprocess.Popen([TOOL, "serve", "--port", "0", "--rate-limit", "0", "--database",
                                os.path.join(directory, "snippets.sqlite")], stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(200):
        log.seek(0)
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", log.read())
        if match:
            return process, int(match.group(1))
        time.sleep(0.05)
    raise SystemExit("the server did not start")


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{path} answered {response.status}: {data[:200]}")
    return json.loads(data), elapsed


def program(client, run):
    return f"def f(x) x * {client} + {run}\nf(3)\n"


def load(port, clients, runs):
    latencies, lock = [], threading.Lock()

    def client(number):
        for run in range(runs):
            answer, elapsed = post(port, "/api/run", {"source": program(number, run)})
            assert answer["stdout"] == f"{3 * number + run:g}\n", answer
            with lock:
                latencies.append(elapsed)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(1, clients + 1)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.perf_counter() - start), sorted(latencies)


def direct_sandbox_runs(count):
    """The baseline: `run --sandbox` one at a time, whole process."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "p.ks")
        with open(path, "w") as file:
            file.write(program(1, 0))
        start = time.perf_counter()
        for _ in range(count):
            subprocess.run([TOOL, "run", "--sandbox", path], check=True, stdout=subprocess.DEVNULL)
        return (time.perf_counter() - start) / count


def percentile(values, fraction):
    return values[min(len(values) - 1, int(fraction * len(values)))]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  benchmarks/playground.py
  benchmarks/playground.py --runs 30""")
    parser.add_argument("--runs", type=int, default=60, help="runs by each of the concurrent clients (default: 60)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(directory)
        try:
            post(port, "/api/run", {"source": "1\n"})  # warm the page cache
            per_second, latencies = load(port, 8, arguments.runs)
            sequential = direct_sandbox_runs(50)
            print(f"small runs, 8 clients: {len(latencies)} runs, {per_second:.1f} runs/s; "
                  f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms")
            print(f"baseline, run --sandbox one at a time: {sequential * 1000:.1f} ms a run = "
                  f"{1 / sequential:.1f} runs/s; the server gives {per_second * sequential:.2f}x that")
            examples = sorted(os.path.join(dirpath, name) for dirpath, _, names in os.walk(os.path.join(ROOT, "examples"))
                              for name in names if name.endswith(".ks"))
            # Each sample's source differs by a comment, so that the result cache (which would
            # answer a repeated request at once) is missed and the view is computed.
            sample = 0
            for view in ("tokens", "ast", "ir", "asm", "passes", "cfg"):
                times = []
                for path in examples:
                    source = open(path).read()
                    samples = []
                    for _ in range(5):
                        sample += 1
                        request = {"source": source + f"# sample {sample}\n", "view": view}
                        samples.append(post(port, "/api/view", request)[1])
                    times.append(sorted(samples)[2])
                print(f"view {view:6}: median {statistics.median(times) * 1000:.1f} ms, "
                      f"worst example {max(times) * 1000:.1f} ms ({len(examples)} examples, median of 5 each)")
            # The Step pane's trace of each example (POST /api/trace), uncached likewise.
            times = []
            for path in examples:
                source = open(path).read()
                samples = []
                for _ in range(3):
                    sample += 1
                    samples.append(post(port, "/api/trace", {"source": source + f"# sample {sample}\n"})[1])
                times.append(sorted(samples)[1])
            print(f"trace       : median {statistics.median(times) * 1000:.1f} ms, "
                  f"worst example {max(times) * 1000:.1f} ms ({len(examples)} examples, median of 3 each)")
            # The same requests again: answered from the cache.
            source = open(examples[0]).read()
            post(port, "/api/view", {"source": source, "view": "passes"})
            hits = sorted(post(port, "/api/view", {"source": source, "view": "passes"})[1] for _ in range(20))
            print(f"a repeated passes view (a cache hit): median {statistics.median(hits) * 1000:.2f} ms")
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait()


if __name__ == "__main__":
    sys.exit(main())
