"""Debugging a `build -g` executable in an editor's way: through the Debug Adapter Protocol,
with Debian's lldb-dap-19 (docs/EDITORS.md). A breakpoint on a line of a .ks file stops
there, and the stack and the variables are the program's own."""
import os
import shutil
import subprocess
import tempfile

import pytest

from dap_client import DAPClient

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", os.path.join(HERE, "..", "..", ".build", "debug", "kaleidoscope"))
ADAPTER = shutil.which("lldb-dap-19")


@pytest.fixture
def executable():
    directory = tempfile.mkdtemp(prefix="ks-dap-")
    program = os.path.join(directory, "fact")
    subprocess.run([TOOL, "build", "-g", "-O0", "-o", program, os.path.join(HERE, "fact.ks")], check=True)
    yield program
    shutil.rmtree(directory, ignore_errors=True)


def test_a_breakpoint_on_a_ks_line_stops_there_with_the_stack_and_the_variables(executable):
    assert ADAPTER, "lldb-dap-19 is missing: scripts/install-deps.sh installs Debian's lldb-19"
    client = DAPClient([ADAPTER])
    try:
        assert client.request("initialize", {"adapterID": "lldb-dap", "linesStartAt1": True,
                                             "columnsStartAt1": True})["success"]
        assert client.request("launch", {"program": executable, "stopOnEntry": False})["success"]
        client.wait_for_event("initialized")
        source = os.path.join(HERE, "fact.ks")
        answer = client.request("setBreakpoints", {"source": {"path": source}, "breakpoints": [{"line": 2}]})
        assert answer["success"] and answer["body"]["breakpoints"][0]["verified"], answer
        assert client.request("configurationDone")["success"]
        stopped = client.wait_for_event("stopped")
        assert stopped["body"]["reason"] == "breakpoint"
        thread = stopped["body"]["threadId"]
        frames = client.request("stackTrace", {"threadId": thread})["body"]["stackFrames"]
        names = [frame["name"] for frame in frames]
        # The program runs on a thread of its own (ks_run_main): fact, the top-level
        # expression, the entry function.
        assert names[:3] == ["fact", "__anon_0", "__ks_main"], names
        assert frames[0]["line"] == 2 and frames[0]["source"]["path"].endswith("fact.ks")
        scopes = client.request("scopes", {"frameId": frames[0]["id"]})["body"]["scopes"]
        variables = client.request("variables", {"variablesReference": scopes[0]["variablesReference"]})
        values = {variable["name"]: variable["value"] for variable in variables["body"]["variables"]}
        assert values.get("n") == "5", values
        # On to the next stop: one call deeper, n is 4 and fact is on the stack twice.
        assert client.request("continue", {"threadId": thread})["success"]
        stopped = client.wait_for_event("stopped")
        frames = client.request("stackTrace", {"threadId": thread})["body"]["stackFrames"]
        assert [frame["name"] for frame in frames][:2] == ["fact", "fact"]
        scopes = client.request("scopes", {"frameId": frames[0]["id"]})["body"]["scopes"]
        variables = client.request("variables", {"variablesReference": scopes[0]["variablesReference"]})
        assert {v["name"]: v["value"] for v in variables["body"]["variables"]}.get("n") == "4"
        client.request("disconnect", {"terminateDebuggee": True})
    finally:
        client.close()
