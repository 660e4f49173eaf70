#!/bin/sh
# Installs kaleidoscope under PREFIX (default ~/.local): the release binary in PREFIX/bin
# with the playground's server beside it (kaleidoscope-serve, which `kaleidoscope serve`
# runs; it uses the Swift toolchain's shared libraries), the examples for the playground's
# menu in PREFIX/share/kaleidoscope, shell completions for bash, zsh and fish, and the man
# page kaleidoscope(1).
#   scripts/install.sh [PREFIX]
# Then put PREFIX/bin on PATH (for ~/.local: `export PATH="$HOME/.local/bin:$PATH"` in your
# shell's profile); editors find `kaleidoscope lsp` there (docs/EDITORS.md).
set -eu
cd "$(dirname "$0")/.."
prefix=${1:-$HOME/.local}
scripts/install-deps.sh
# LLVM's start-up work deferred to its first use (build-support/README.md).
build-support/lazy-llvm.sh
echo "building the release tool..."
swift build -c release --product kaleidoscope
swift build -c release --product kaleidoscope-serve
tool=.build/release/kaleidoscope

mkdir -p "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
  "$prefix/share/fish/vendor_completions.d" "$prefix/share/man/man1"
# Through a temporary name and a rename, so a running kaleidoscope is never overwritten.
cp "$tool" "$prefix/bin/.kaleidoscope.new"
mv -f "$prefix/bin/.kaleidoscope.new" "$prefix/bin/kaleidoscope"
cp .build/release/kaleidoscope-serve "$prefix/bin/.kaleidoscope-serve.new"
mv -f "$prefix/bin/.kaleidoscope-serve.new" "$prefix/bin/kaleidoscope-serve"
rm -rf "$prefix/share/kaleidoscope/examples"
mkdir -p "$prefix/share/kaleidoscope"
cp -R examples "$prefix/share/kaleidoscope/examples"
"$tool" --generate-completion-script bash >"$prefix/share/bash-completion/completions/kaleidoscope"
"$tool" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_kaleidoscope"
"$tool" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/kaleidoscope.fish"

echo "writing the man page..."
swift package --allow-writing-to-package-directory generate-manual >/dev/null
cp .build/plugins/GenerateManual/outputs/kaleidoscope/kaleidoscope.1 "$prefix/share/man/man1/kaleidoscope.1"

echo "installed in $prefix:"
echo "  $prefix/bin/kaleidoscope (and kaleidoscope-serve, for kaleidoscope serve)"
echo "  completions for bash, zsh and fish; man page: man kaleidoscope"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to PATH, e.g.: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
