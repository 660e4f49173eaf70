#!/bin/sh
# Set-up and the main job in one command: install what is missing, build the release binary,
# and run the tutorial's Mandelbrot example.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# No manifest cache: see scripts/test.sh.
swift build -c release --product kaleidoscope --manifest-cache none
bin=.build/release/kaleidoscope
$bin run examples/mandelbrot.ks
echo "built $bin; try: $bin repl"
