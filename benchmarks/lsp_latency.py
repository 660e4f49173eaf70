#!/usr/bin/env python3
"""Latency of `kaleidoscope lsp` (release build) on a 2,000-line document, as an editor sees
it: from sending a change to receiving its diagnostics, and the round trip of hover and of
completion. The baseline, measured in the same run, is the round trip of a request the
server refuses at once (unknown method): the cost of the pipes and JSON alone.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import generate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", os.path.join(ROOT, ".build", "release", "kaleidoscope"))
URI = "file:///bench/big.ks"


class Client:
    def __init__(self):
        self.process = subprocess.Popen([TOOL, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = 0
        while True:
            line = self.process.stdout.readline().strip()
            if not line:
                break
            name, value = line.split(b":", 1)
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message

    def wait_for_diagnostics(self, version):
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["version"] == version:
                return message["params"]["diagnostics"]


def document():
    rng = random.Random(7)
    prelude = "def binary : 1 (x y) y\ndef binary ~ 15 (x y) x * 0.5 + y\n"
    functions = [generate.function(rng, index, [f"f{index - 1}"] if index else []) for index in range(333)]
    return prelude + "".join(functions) + "f332(3, 4)\n"


def timed(action):
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def summary(name, samples, target=None):
    samples = sorted(samples)
    p90 = samples[int(len(samples) * 0.9) - 1]
    goal = f" (target < {target} ms)" if target else ""
    print(f"{name}: median {statistics.median(samples):.2f} ms, p90 {p90:.2f} ms{goal}")
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  benchmarks/lsp_latency.py
  benchmarks/lsp_latency.py --runs 500""")
    parser.add_argument("--runs", type=int, default=100, help="requests of each kind (default: 100)")
    runs = parser.parse_args().runs
    subprocess.run(["swift", "build", "-c", "release", "--product", "kaleidoscope"], cwd=ROOT, check=True, capture_output=True)
    text = document()
    lines = text.count("\n")
    client = Client()
    client.request("initialize", {"capabilities": {}})
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": URI, "languageId": "kaleidoscope", "version": 1, "text": text}}})
    assert client.wait_for_diagnostics(1) == [], "the generated document must check cleanly"

    floor, change, hover, completion = [], [], [], []
    version = 1
    for run in range(runs):
        floor.append(timed(lambda: client.request("bench/nothing", {})))
        # Type a character into a body and take it out again, alternately.
        version += 1
        line = 6 * (run % 300) + 7
        edit = ({"range": {"start": {"line": line, "character": 4}, "end": {"line": line, "character": 4}}, "text": " "}
                if version % 2 == 0 else
                {"range": {"start": {"line": line - 1, "character": 4}, "end": {"line": line - 1, "character": 5}}, "text": ""})
        def change_once():
            client.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                         "params": {"textDocument": {"uri": URI, "version": version}, "contentChanges": [edit]}})
            client.wait_for_diagnostics(version)
        change.append(timed(change_once))
        call = {"textDocument": {"uri": URI}, "position": {"line": 6 * (run % 300) + 6, "character": 23}}
        hover.append(timed(lambda: client.request("textDocument/hover", call)))
        completion.append(timed(lambda: client.request("textDocument/completion", call)))
    client.request("shutdown", None)
    client.send({"jsonrpc": "2.0", "method": "exit"})
    client.process.wait()

    print(f"document: {lines} lines, {len(text) / 1000:.0f} kB; {runs} runs")
    base = summary("round trip of a refused request (baseline)", floor)
    for name, samples, target in [("change to diagnostics", change, 20), ("hover", hover, 5), ("completion", completion, 5)]:
        median = summary(name, samples, target)
        print(f"  = {median / base:.1f}x the baseline")


if __name__ == "__main__":
    main()
