#!/bin/sh
# Installs the system packages the toolchain needs, when they are missing (Debian 12).
#   llvm-19-dev    LLVM 19 headers and static libraries (the back end)
#   libstdc++-12-dev, zlib1g-dev, libzstd1
#                  what LLVM's static libraries link against (the release tool links
#                  libstdc++.a and libz.a; Debian has no static libzstd)
#   llvm-19-tools  FileCheck (IR tests)
#   libedit-dev    line editing for the REPL
#   libseccomp-dev the sandbox's seccomp filter (libseccomp)
#   gdb            the debugger test of `build -g`
#   python3-pexpect  REPL tests through a pseudo-terminal
#   neovim         a real editor on the language server (Tests/Editors)
#   python3-venv   the Python tests' environment (pytest-lsp and Playwright, from PyPI)
#   libjs-codemirror  the playground's editor, served from /usr/share/javascript/codemirror
#   chromium       the real browser of the playground's tests (Tests/Playground)
#   postgresql     the shared snippet store, started and stopped by those tests
#   wrk            HTTP load, for benchmarks/playground.py's neighbours
#   graphviz       `dot`, which draws `cfg --format svg`
#   lldb-19        lldb-dap-19, the debug adapter of Tests/Debugger (build -g executables)
#   haproxy        the load balancer of scripts/cluster.sh and the chaos tests
set -eu
missing=""
for package in llvm-19-dev libstdc++-12-dev zlib1g-dev libzstd1 llvm-19-tools libedit-dev libseccomp-dev gdb python3-pexpect neovim python3-venv libjs-codemirror chromium postgresql wrk graphviz lldb-19 haproxy; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
