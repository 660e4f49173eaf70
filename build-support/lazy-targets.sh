#!/bin/sh
# Copies LLVM's static libraries of every target but the host's into .build/lazy-targets/,
# their static constructors moved out of `.init_array` into a section of their own,
# `ks_lazy_init`, that the loader does not run. The tool runs them itself just before it
# first uses those targets (`LLVMTargets.initializeAll`, for `build --target`), so that no
# other start pays for them. Package.swift links these copies when the set is complete.
#
#   build-support/lazy-targets.sh     (the set-up and test scripts run it; about 2 s)
set -eu
cd "$(dirname "$0")/.."
llvm=/usr/lib/llvm-19
objcopy=$llvm/bin/llvm-objcopy
out=.build/lazy-targets
# Without LLVM's tools the manifest links the libraries as they are.
[ -x "$llvm/bin/llvm-config" ] && [ -x "$objcopy" ] || exit 0
native=$(sed -n 's/^#define LLVM_NATIVE_ARCH \(.*\)$/\1/p' "$llvm/include/llvm/Config/llvm-config.h")
mkdir -p "$out"
rm -f "$out/complete"
for library in $("$llvm/bin/llvm-config" --link-static --libs all-targets); do
  name=${library#-l}
  target=""
  for candidate in $("$llvm/bin/llvm-config" --targets-built); do
    case $name in "LLVM$candidate"*) target=$candidate ;; esac
  done
  [ -n "$target" ] && [ "$target" != "$native" ] || continue
  copy="$out/lib$name.a"
  [ "$copy" -nt "$llvm/lib/lib$name.a" ] && continue
  # Type 1 is PROGBITS: left an INIT_ARRAY, the section would get a second DT_INIT_ARRAY
  # entry, which the loader would run instead of the first.
  "$objcopy" --rename-section .init_array=ks_lazy_init --set-section-type .init_array=1 \
    "$llvm/lib/lib$name.a" "$copy.tmp"
  mv "$copy.tmp" "$copy"
done
touch "$out/complete"
