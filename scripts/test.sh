#!/bin/sh
# Runs every test: unit tests, end-to-end tests against the built binary, and IR checks; then
# the end-to-end tests again against the release build, which is what users run and is linked
# differently (static Swift runtime, not position-independent; see Package.swift).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
swift build -c release --product kaleidoscope
KALEIDOSCOPE_TOOL="$PWD/.build/release/kaleidoscope" swift test --skip-build --filter EndToEndTests
