#!/bin/sh
# Runs every test: unit tests, end-to-end tests against the built binary, and IR checks.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
