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
# The playground starts from the prefix and lists the installed examples.
"$prefix/bin/kaleidoscope" serve --port 0 --database "$prefix/snippets.sqlite" 2>"$prefix/serve.log" &
server=$!
for _ in $(seq 100); do grep -q 'listening on' "$prefix/serve.log" && break; sleep 0.1; done
url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$prefix/serve.log")
python3 -c "import json, sys, urllib.request; names = [e['name'] for e in json.load(urllib.request.urlopen(sys.argv[1] + 'api/examples'))]; assert 'fib' in names, names" "$url"
kill -TERM "$server"
wait "$server"
echo "install: ok"
