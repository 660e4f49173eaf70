#!/bin/sh
# Builds the libFuzzer targets, instrumented for coverage and AddressSanitizer, into
# .build/fuzz/ (about three minutes on two cores):
#   frontend-fuzzer   lexer, parser, sema, diagnostics, printers and formatter on arbitrary bytes
#   irgen-fuzzer      IR generation, verification and (sometimes) -O2 of accepted programs
# SwiftPM cannot build a libFuzzer main, so this calls swiftc: the front end becomes a static
# library (its own module), the back end is compiled together with the IR fuzzer's entry.
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/runtime"
flags="-O -g -sanitize=fuzzer,address -enforce-exclusivity=unchecked"

# The C runtime, and a module map for it (SwiftPM makes one for the package build).
for source in runtime runtime_source stack tiers; do
  clang -std=gnu2x -O2 -fsanitize=address -ISources/KaleidoscopeRuntime/include \
    -c "Sources/KaleidoscopeRuntime/$source.c" -o "$out/runtime/$source.o"
done
cat >"$out/runtime/module.modulemap" <<MAP
module KaleidoscopeRuntime {
  header "$(pwd)/Sources/KaleidoscopeRuntime/include/KaleidoscopeRuntime.h"
  export *
}
MAP
runtime="$out/runtime/runtime.o $out/runtime/runtime_source.o $out/runtime/stack.o $out/runtime/tiers.o"

# shellcheck disable=SC2046,SC2086
swiftc $flags -parse-as-library -emit-library -static -module-name KaleidoscopeFrontend \
  -emit-module-path "$out/KaleidoscopeFrontend.swiftmodule" \
  $(find Sources/KaleidoscopeFrontend -name '*.swift' | sort) -o "$out/libKaleidoscopeFrontend.a"

# The interpreter, over the front end and the runtime (the back end's tiers call it).
# shellcheck disable=SC2046,SC2086
swiftc $flags -parse-as-library -emit-library -static -module-name KaleidoscopeInterpreter -I "$out" -I "$out/runtime" \
  -emit-module-path "$out/KaleidoscopeInterpreter.swiftmodule" \
  $(find Sources/KaleidoscopeInterpreter -name '*.swift' | sort) -o "$out/libKaleidoscopeInterpreter.a"

# The formatter, a module of its own over the front end.
# shellcheck disable=SC2046,SC2086
swiftc $flags -parse-as-library -emit-library -static -module-name KaleidoscopeFormat -I "$out" -I "$out/runtime" \
  -emit-module-path "$out/KaleidoscopeFormat.swiftmodule" \
  $(find Sources/Tools/Format -name '*.swift' | sort) -o "$out/libKaleidoscopeFormat.a"

# shellcheck disable=SC2086
swiftc $flags -parse-as-library -module-name FrontendFuzzer -I "$out" -I "$out/runtime" \
  fuzz/FrontendFuzzer.swift "$out/libKaleidoscopeFormat.a" "$out/libKaleidoscopeFrontend.a" $runtime \
  -o "$out/frontend-fuzzer" 2>&1 | grep -v "Cannot export local symbol" || true

# shellcheck disable=SC2046,SC2086
swiftc $flags -parse-as-library -module-name IRGenFuzzer -I "$out" -I "$out/runtime" -I Sources/CLLVM \
  -Xcc -I/usr/lib/llvm-19/include \
  $(find Sources/KaleidoscopeBackend -name '*.swift' | sort) fuzz/IRGenFuzzer.swift \
  "$out/libKaleidoscopeInterpreter.a" "$out/libKaleidoscopeFrontend.a" $runtime \
  -L/usr/lib/llvm-19/lib -lLLVM-19 -lm -Xlinker -rpath -Xlinker /usr/lib/llvm-19/lib \
  -o "$out/irgen-fuzzer" 2>&1 | grep -v "Cannot export local symbol" || true

ls -l "$out/frontend-fuzzer" "$out/irgen-fuzzer"
