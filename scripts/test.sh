#!/bin/sh
# Runs every test: unit tests, end-to-end tests against the built binary, and IR checks; then
# the end-to-end tests again against the release build, which is what users run and is linked
# differently (static Swift runtime, not position-independent; see Package.swift); the
# language server's protocol tests (Python, pytest-lsp) against the release build;
# `kaleidoscope dap` and a `build -g` executable in lldb-dap-19, through a Debug Adapter
# Protocol client; the playground in a real browser, with PostgreSQL and under load, and
# the cluster's chaos tests (Python, Playwright), against the debug build (a release build
# of the server's packages would double the time); an
# install into a temporary prefix; and checks that every benchmark script has `--help`,
# that the repository's programs are in the canonical layout (docs/STYLE.md) and its Swift
# code in swift-format's (.swift-format).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# LLVM's start-up work deferred to its first use (build-support/README.md).
build-support/lazy-llvm.sh
scripts/python-env.sh
# The toolchain's swift-format, with the committed configuration; first, as it takes seconds.
swift format lint --strict -r Sources Tests fuzz Package.swift
# Package.swift links LLVM statically only when llvm-config exists, and SwiftPM caches a
# manifest's evaluation by its text: a build run before LLVM was installed would otherwise keep
# the shared-library fallback (a slower tool) in every later clone.
swift build --build-tests --manifest-cache none
swift test --skip-build
swift build -c release --product kaleidoscope --manifest-cache none
KALEIDOSCOPE_TOOL="$PWD/.build/release/kaleidoscope" swift test --skip-build --filter EndToEndTests
(cd Tests/LSPProtocol && KALEIDOSCOPE_TOOL="$PWD/../../.build/release/kaleidoscope" ../../.build/python/bin/pytest -q)
(cd Tests/Debugger && KALEIDOSCOPE_TOOL="$PWD/../../.build/release/kaleidoscope" ../../.build/python/bin/pytest -q)
(cd Tests/Playground && KALEIDOSCOPE_TOOL="$PWD/../../.build/debug/kaleidoscope" ../../.build/python/bin/pytest -q)
scripts/test-install.sh
# Every benchmark explains itself: --help prints examples and runs nothing. The hover
# benchmark needs Playwright, which only the project's Python environment has.
for script in benchmarks/*.py; do
  python=python3
  if [ "$script" = benchmarks/playground_hover.py ]; then python=.build/python/bin/python; fi
  "$python" "$script" --help | grep -q '^examples:' || { echo "$script --help shows no examples" >&2; exit 1; }
done
# Every program but the deliberately malformed ones (diagnostics, regressions) and the
# formatter's own unformatted inputs.
git ls-files '*.ks' | grep -v -e '/Diagnostics/' -e '/Regressions/' -e '^Tests/FormatTests/Style/' |
  xargs .build/release/kaleidoscope fmt --check
