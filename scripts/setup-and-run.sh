#!/bin/sh
# Set-up and the main job in one command: install what is missing, build the release binary
# and the playground's server beside it, and run the tutorial's Mandelbrot example.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# LLVM's start-up work deferred to its first use (build-support/README.md).
build-support/lazy-llvm.sh
# No manifest cache: see scripts/test.sh.
swift build -c release --product kaleidoscope --manifest-cache none
bin=.build/release/kaleidoscope
$bin run examples/mandelbrot.ks
# The playground's server (Hummingbird, SwiftNIO, SQLite, PostgreSQL): a first build takes
# several minutes, so it comes after the example.
echo "building the playground's server..."
swift build -c release --product kaleidoscope-serve --manifest-cache none
echo "built $bin; try: $bin repl, or $bin serve and open http://127.0.0.1:8080/"
