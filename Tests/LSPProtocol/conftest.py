"""The language server under test: `kaleidoscope lsp` of the build named by
KALEIDOSCOPE_TOOL (scripts/test.sh passes the release build), else the debug build."""
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", str(ROOT / ".build" / "debug" / "kaleidoscope"))
