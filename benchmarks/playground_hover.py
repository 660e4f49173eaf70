#!/usr/bin/env python3
"""The page's linked colouring: how long one hover takes in Chromium on a 200-line program.

Starts `kaleidoscope serve` (the tool in KALEIDOSCOPE_TOOL, else the debug build), opens the
page in Debian's chromium with Playwright, loads a generated 200-line program, fills every
pane that links source lines (tokens, tree, IR, assembly), then lights each source line in
turn as a hover does, forcing the browser to lay the page out and paint after each, and
reports the median and the worst time per hover. Target (issue 32): < 16 ms, one frame.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Playground"))
os.environ.setdefault(
    "KALEIDOSCOPE_TOOL", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "kaleidoscope"))

from conftest import Server  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

EXAMPLES = """examples:
  .build/python/bin/python benchmarks/playground_hover.py
  KALEIDOSCOPE_TOOL=.build/release/kaleidoscope .build/python/bin/python benchmarks/playground_hover.py --lines 500"""


def program(lines):
    """Functions of five lines each, with a loop, an `if` and calls, then their calls."""
    text = ["def binary : 1 (x y) y"]
    count = 0
    while len(text) < lines - 2:
        text += [
            f"def f{count}(n)",
            "  var s = 0 in",
            f"    (for i = 0, i < n in s = s + (if i < {count} then i * 2 else i - 1)) :",
            f"    s + {count}",
            "",
        ]
        count += 1
    text.append(" + ".join(f"f{i}(10)" for i in range(min(count, 20))))
    return "\n".join(text[:lines]) + "\n"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=200, metavar="N", help="lines of the program (default: 200)")
    lines = parser.parse_args().lines
    if lines < 10:
        parser.error("--lines must be at least 10")
    server = Server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(server.url)
            page.wait_for_selector(".CodeMirror")
            source = program(lines)
            page.evaluate("(text) => document.querySelector('.CodeMirror').CodeMirror.setValue(text)", source)
            for tab, ready in [("Tokens", "#tokens .line"), ("Syntax tree", "#tree g"), ("IR", "#ir .line"),
                               ("Assembly", "#asm .line")]:
                page.get_by_role("tab", name=tab).click()
                page.wait_for_selector(ready)
            page.get_by_role("tab", name="IR").click()
            linked = page.evaluate("document.querySelectorAll('[data-source-line]').length")
            times = page.evaluate(
                """(lines) => {
                  const times = [];
                  for (let line = 1; line <= lines; line++) {
                    const start = performance.now();
                    window.SourceLinks.highlight(line);
                    document.body.getBoundingClientRect();  // style and layout, as a frame would
                    times.push(performance.now() - start);
                  }
                  return times;
                }""", lines)
            browser.close()
    finally:
        server.close()
    print(f"{lines}-line program, {linked} linked elements in the panes")
    print(f"hover: median {statistics.median(times):.2f} ms, worst {max(times):.2f} ms (target < 16 ms)")


if __name__ == "__main__":
    main()
