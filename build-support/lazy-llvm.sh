#!/bin/sh
# Copies LLVM's static libraries into .build/lazy-llvm/ with their static constructors moved
# out of `.init_array`, which the loader runs before `main`, into sections it does not run:
# the other targets' into `ks_lazy_init`, the rest of LLVM's (the host's target included)
# into `ks_llvm_init`. The tool runs them itself: LLVM's just before its first use of LLVM
# (`LLVMLibrary.prepare`), the other targets' just before a cross build first needs them
# (`LLVMTargets.initializeAll`). Commands that never reach LLVM (check, fmt, the language
# server) then never pay for them. Package.swift links these copies when the set is
# complete.
#
#   build-support/lazy-llvm.sh     (the set-up, test and install scripts run it; about 6 s)
set -eu
cd "$(dirname "$0")/.."
llvm=/usr/lib/llvm-19
objcopy=$llvm/bin/llvm-objcopy
out=.build/lazy-llvm
# Without LLVM's tools the manifest links the libraries as they are.
[ -x "$llvm/bin/llvm-config" ] && [ -x "$objcopy" ] || exit 0
native=$(sed -n 's/^#define LLVM_NATIVE_ARCH \(.*\)$/\1/p' "$llvm/include/llvm/Config/llvm-config.h")
targets=$("$llvm/bin/llvm-config" --targets-built)
mkdir -p "$out"
rm -f "$out/complete"
# Every library, so that the list of components lives in Package.swift alone; it links the
# copies of those it names.
for library in $("$llvm/bin/llvm-config" --link-static --libs all); do
  name=${library#-l}
  # `all` names some libraries Debian does not ship (Polly).
  [ -f "$llvm/lib/lib$name.a" ] || continue
  section=ks_llvm_init
  for target in $targets; do
    case $name in "LLVM$target"*) [ "$target" = "$native" ] || section=ks_lazy_init ;; esac
  done
  copy="$out/lib$name.a"
  [ "$copy" -nt "$llvm/lib/lib$name.a" ] && [ "$copy" -nt "$0" ] && continue
  # Type 1 is PROGBITS: left an INIT_ARRAY, the section would get a second DT_INIT_ARRAY
  # entry, which the loader would run instead of the first.
  "$objcopy" --rename-section ".init_array=$section" --set-section-type .init_array=1 \
    "$llvm/lib/lib$name.a" "$copy.tmp"
  mv "$copy.tmp" "$copy"
done
touch "$out/complete"
