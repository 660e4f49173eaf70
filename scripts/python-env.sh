#!/bin/sh
# Makes .build/python, a virtual environment with what the Python tests need from PyPI
# (pytest-lsp for Tests/LSPProtocol, Playwright for Tests/Playground), unless it is already
# there. Playwright drives Debian's chromium; its own browser download is never used.
set -eu
cd "$(dirname "$0")/.."
if [ -x .build/python/bin/pytest ] && .build/python/bin/python -c 'import pytest_lsp, playwright' 2>/dev/null; then
  exit 0
fi
python3 -m venv .build/python
.build/python/bin/pip install --quiet --disable-pip-version-check 'pytest-lsp==1.0.1' 'playwright==1.65.2'
