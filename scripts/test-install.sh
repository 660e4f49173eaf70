#!/bin/sh
# Installs into a temporary prefix with scripts/install.sh and checks what it put there: the
# tool runs, the completion scripts load in their shells, the man page is a man page.
set -eu
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
scripts/install.sh "$prefix" >/dev/null 2>&1
"$prefix/bin/kaleidoscope" --version
echo 'def f(x) x' | "$prefix/bin/kaleidoscope" fmt - >/dev/null
bash -c ". '$prefix/share/bash-completion/completions/kaleidoscope' && complete -p kaleidoscope" >/dev/null
grep -q '#compdef kaleidoscope' "$prefix/share/zsh/site-functions/_kaleidoscope"
grep -q "complete -c 'kaleidoscope'" "$prefix/share/fish/vendor_completions.d/kaleidoscope.fish"
grep -q '^\.Sh NAME' "$prefix/share/man/man1/kaleidoscope.1"
grep -q 'lsp' "$prefix/share/man/man1/kaleidoscope.1"
echo "install: ok"
