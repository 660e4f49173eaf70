#!/bin/sh
# Runs one fuzzer built by fuzz/build.sh.
#
#   fuzz/run.sh frontend|irgen [SECONDS] [extra libFuzzer flags...]
#
# New inputs go to .build/fuzz/corpus-NAME (seeded from fuzz/corpus/NAME, which stays
# small: merge interesting ones back with `-merge=1 fuzz/corpus/NAME .build/fuzz/corpus-NAME`);
# crashes go to .build/fuzz/artifacts/. The main thread's stack is raised as the tool raises
# its own (deeply nested inputs are legal up to the parser's limit).
set -eu
cd "$(dirname "$0")/.."
name=$1
seconds=${2:-60}
shift; [ $# -gt 0 ] && shift
mkdir -p ".build/fuzz/corpus-$name" .build/fuzz/artifacts
ulimit -s 1048576
exec ".build/fuzz/$name-fuzzer" -max_total_time="$seconds" -dict=fuzz/kaleidoscope.dict -max_len=4096 \
  -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=.build/fuzz/artifacts/ "$@" \
  ".build/fuzz/corpus-$name" "fuzz/corpus/$name"
