"""`kaleidoscope dap` through a Debug Adapter Protocol client, as an editor drives it (SPEC
§8): every request it supports, stops of every kind, and requests that are wrong."""
import os
import shutil
import tempfile
import time

import pytest

from dap_client import DAPClient

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", os.path.join(HERE, "..", "..", ".build", "debug", "kaleidoscope"))

FACT = """\
extern printd(x)

# the factorial, recursively
def fact(n)
  if n < 2 then
    1
  else
    n * fact(n - 1)

printd(fact(5))
"""


class Session:
    """A `kaleidoscope dap` with a program written to a file, initialized and launched."""

    def __init__(self, source, stop_on_entry=False, stdin=None, launch=True):
        self.directory = tempfile.mkdtemp(prefix="ks-dap-")
        self.path = os.path.join(self.directory, "program.ks")
        with open(self.path, "w") as file:
            file.write(source)
        self.client = DAPClient([TOOL, "dap"])
        answer = self.request("initialize", {"adapterID": "kaleidoscope", "linesStartAt1": True})
        self.capabilities = answer["body"]
        if launch:
            arguments = {"program": self.path, "stopOnEntry": stop_on_entry}
            if stdin is not None:
                arguments["stdin"] = os.path.join(self.directory, "input.txt")
                with open(arguments["stdin"], "w") as file:
                    file.write(stdin)
            assert self.request("launch", arguments)["success"]
            self.client.wait_for_event("initialized")

    def request(self, command, arguments=None):
        return self.client.request(command, arguments)

    def ok(self, command, arguments=None):
        answer = self.request(command, arguments)
        assert answer["success"], answer
        return answer.get("body", {})

    def breakpoints(self, *lines, **options):
        entries = [dict({"line": line}, **options) for line in lines]
        return self.ok("setBreakpoints", {"source": {"path": self.path}, "breakpoints": entries})["breakpoints"]

    def start(self):
        self.ok("configurationDone")

    def stopped(self, reason=None):
        event = self.client.wait_for_event("stopped")
        if reason:
            assert event["body"]["reason"] == reason, event
        return event["body"]

    def stack(self):
        return self.ok("stackTrace", {"threadId": 1})["stackFrames"]

    def variables(self, frame_id, scope="Locals"):
        scopes = self.ok("scopes", {"frameId": frame_id})["scopes"]
        reference = next(s["variablesReference"] for s in scopes if s["name"] == scope)
        return {v["name"]: v for v in self.ok("variables", {"variablesReference": reference})["variables"]}

    def output(self):
        return "".join(e["body"]["output"] for e in self.client.events
                       if e["event"] == "output" and e["body"]["category"] == "stdout")

    def finish(self):
        exited = self.client.wait_for_event("exited")["body"]["exitCode"]
        self.client.wait_for_event("terminated")
        return exited

    def close(self):
        try:
            self.request("disconnect")
        except RuntimeError:
            pass
        self.client.close()
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def sessions():
    made = []

    def make(*arguments, **options):
        made.append(Session(*arguments, **options))
        return made[-1]

    yield make
    for session in made:
        session.close()


def test_it_stops_on_entry_then_runs_to_the_end_with_its_output(sessions):
    session = sessions(FACT, stop_on_entry=True)
    assert session.capabilities["supportsConditionalBreakpoints"]
    assert session.capabilities["supportsLogPoints"]
    session.start()
    session.stopped("entry")
    assert session.ok("threads")["threads"] == [{"id": 1, "name": "main"}]
    top = session.stack()[0]
    assert (top["name"], top["line"], top["source"]["path"]) == ("top level", 10, session.path)
    session.ok("continue", {"threadId": 1})
    assert session.finish() == 0
    assert session.output() == "120\n0\n"


def test_a_recursive_breakpoint_shows_every_frame_and_its_variables(sessions):
    session = sessions(FACT)
    assert [b["line"] for b in session.breakpoints(5)] == [5]
    session.start()
    for depth in range(1, 6):
        event = session.stopped("breakpoint")
        assert event["hitBreakpointIds"]
        stack = session.stack()
        assert [f["name"] for f in stack] == ["fact"] * depth + ["top level"]
        # The innermost is at the breakpoint; each caller at its call, line 8.
        assert [f["line"] for f in stack[:depth]] == [5] + [8] * (depth - 1)
        assert session.variables(stack[0]["id"])["n"]["value"] == str(6 - depth)
        if depth == 5:
            # Every frame has its own n.
            assert [session.variables(f["id"])["n"]["value"] for f in stack[:5]] == ["1", "2", "3", "4", "5"]
            assert session.ok("evaluate", {"expression": "n * 10 + 1", "frameId": stack[3]["id"]})["result"] == "41"
        session.ok("continue", {"threadId": 1})
    assert session.finish() == 0


def test_stepping_over_into_and_out(sessions):
    session = sessions(FACT)
    session.breakpoints(10)
    session.start()
    session.stopped("breakpoint")
    session.ok("stepIn", {"threadId": 1})
    session.stopped("step")
    assert [f["name"] for f in session.stack()] == ["fact", "top level"]
    assert session.stack()[0]["line"] == 5
    session.ok("next", {"threadId": 1})
    session.stopped("step")
    assert session.stack()[0]["line"] == 8 and len(session.stack()) == 2
    session.ok("stepIn", {"threadId": 1})
    session.stopped("step")
    assert len(session.stack()) == 3
    # Out of the inner call: back in its caller, at the call.
    session.ok("stepOut", {"threadId": 1})
    session.stopped("step")
    assert [(f["name"], f["line"]) for f in session.stack()] == [("fact", 8), ("top level", 10)]
    # Over the rest of the function: in its caller, at the call.
    session.ok("next", {"threadId": 1})
    session.stopped("step")
    assert [f["name"] for f in session.stack()] == ["top level"]
    session.breakpoints()
    session.ok("next", {"threadId": 1})
    assert session.finish() == 0
    assert session.output() == "120\n0\n"


def test_a_breakpoint_on_a_line_without_code_moves_to_the_next_line_with_code(sessions):
    session = sessions(FACT)
    moved, nowhere = session.breakpoints(3, 40)
    # Line 3 is a comment and line 4 the prototype: the body starts on line 5.
    assert moved["verified"] and moved["line"] == 5 and "moved from line 3" in moved["message"]
    assert not nowhere["verified"] and "no code" in nowhere["message"]
    session.start()
    session.stopped("breakpoint")
    assert session.stack()[0]["name"] == "fact"


def test_conditional_and_hit_count_breakpoints(sessions):
    session = sessions(FACT)
    session.breakpoints(5, condition="n < 3")
    session.start()
    session.stopped("breakpoint")
    assert session.variables(session.stack()[0]["id"])["n"]["value"] == "2"
    session.breakpoints(5, hitCondition="2")
    session.ok("continue", {"threadId": 1})
    # Counting starts with the new breakpoint: its second hit is the frame of n = 1... but
    # only one hit of line 5 is left (n = 1), so the program ends without another stop.
    assert session.finish() == 0

    again = sessions(FACT)
    again.breakpoints(5, hitCondition=">= 4")
    again.start()
    again.stopped("breakpoint")
    assert again.variables(again.stack()[0]["id"])["n"]["value"] == "2"
    bad = again.breakpoints(5, hitCondition="often")[0]
    assert not bad["verified"] and "not a hit count" in bad["message"]


def test_a_logpoint_prints_instead_of_stopping(sessions):
    session = sessions(FACT)
    session.breakpoints(5, logMessage="n is {n}, twice {n * 2}, {nothing}")
    session.start()
    assert session.finish() == 0
    console = [e["body"]["output"] for e in session.client.events
               if e["event"] == "output" and e["body"]["category"] == "console"]
    assert console[0] == "n is 5, twice 10, <no variable 'nothing' here>\n"
    assert len(console) == 5
    assert not any(e["event"] == "stopped" for e in session.client.events)


def test_a_function_breakpoint(sessions):
    session = sessions(FACT)
    answer = session.ok("setFunctionBreakpoints", {"breakpoints": [{"name": "fact"}, {"name": "nope"}]})
    assert answer["breakpoints"][0]["verified"] and not answer["breakpoints"][1]["verified"]
    session.start()
    session.stopped("function breakpoint")
    assert session.stack()[0]["name"] == "fact"


def test_a_runtime_error_stops_with_its_message_then_ends_the_program(sessions):
    session = sessions("var a[3]\ndef get(i) a[i]\nget(1)\nget(7)\n")
    session.start()
    event = session.stopped("exception")
    assert "index 7 is out of bounds for 'a' (length 3)" in event["description"]
    assert [f["name"] for f in session.stack()] == ["get", "top level"]
    assert session.variables(session.stack()[0]["id"])["i"]["value"] == "7"
    session.ok("continue", {"threadId": 1})
    assert session.finish() == 1
    errors = "".join(e["body"]["output"] for e in session.client.events
                     if e["event"] == "output" and e["body"]["category"] == "stderr")
    assert "program.ks:2:12: runtime error: index 7 is out of bounds" in errors


def test_pause_stops_an_endless_loop_promptly_and_terminate_ends_it(sessions):
    session = sessions("def spin() var n = 0 in while 1 in n = n + 1\nspin()\n")
    session.start()
    time.sleep(0.5)
    asked = time.monotonic()
    session.ok("pause", {"threadId": 1})
    session.stopped("pause")
    assert time.monotonic() - asked < 1
    assert float(session.variables(session.stack()[0]["id"])["n"]["value"]) > 0
    session.ok("terminate")
    session.client.wait_for_event("terminated")


def test_a_breakpoint_set_while_running_takes_effect(sessions):
    session = sessions("def spin() var n = 0 in\n  while 1 in\n    n = n + 1\nspin()\n")
    session.start()
    time.sleep(0.3)
    assert session.breakpoints(3)[0]["verified"]
    session.stopped("breakpoint")
    assert session.stack()[0]["line"] == 3


def test_arrays_of_a_hundred_thousand_elements_are_paged(sessions):
    session = sessions("var big[100000]\ndef fill(a[]) for i = 0, i < len(a) in a[i] = i * 2\nfill(big)\n0\n")
    session.breakpoints(4)
    session.start()
    session.stopped("breakpoint")
    frame = session.stack()[0]["id"]
    big = session.variables(frame, "Globals")["big"]
    assert big["indexedVariables"] == 100000 and big["value"].endswith("(length 100000)")
    page = session.ok("variables", {"variablesReference": big["variablesReference"], "filter": "indexed",
                                    "start": 99990, "count": 10})["variables"]
    assert [(v["name"], v["value"]) for v in page][:2] == [("[99990]", "199980"), ("[99991]", "199982")]
    assert len(page) == 10
    assert session.ok("evaluate", {"expression": "big[500] + len(big)", "frameId": frame})["result"] == "101000"


def test_set_variable_changes_what_the_program_computes(sessions):
    session = sessions("extern printd(x)\nvar g = 1\ndef f(x)\n  x + g\nprintd(f(1))\n")
    session.breakpoints(4)
    session.start()
    session.stopped("breakpoint")
    frame = session.stack()[0]["id"]
    scopes = session.ok("scopes", {"frameId": frame})["scopes"]
    locals_, globals_ = (s["variablesReference"] for s in scopes)
    assert session.ok("setVariable", {"variablesReference": locals_, "name": "x", "value": "40"})["value"] == "40"
    assert session.ok("setVariable", {"variablesReference": globals_, "name": "g", "value": "1 + 1"})["value"] == "2"
    wrong = session.request("setVariable", {"variablesReference": locals_, "name": "nope", "value": "1"})
    assert not wrong["success"]
    session.ok("continue", {"threadId": 1})
    assert session.finish() == 0
    assert session.output().startswith("42\n")


def test_standard_input_comes_from_the_launch_file(sessions):
    session = sessions("extern readd()\nextern printd(x)\nprintd(readd() + readd())\n", stdin="20 22\n")
    session.start()
    assert session.finish() == 0
    assert session.output().startswith("42\n")


def test_a_program_with_errors_is_not_launched_and_says_why(sessions):
    session = sessions("def f(x) x +\n", launch=False)
    path = os.path.join(session.directory, "broken.ks")
    with open(path, "w") as file:
        file.write("def f(x) x +\n")
    answer = session.request("launch", {"program": path})
    assert not answer["success"] and "has errors" in answer["message"]
    errors = [e["body"]["output"] for e in session.client.events if e["event"] == "output"]
    assert any("broken.ks:2:1: error:" in text or "broken.ks:1" in text for text in errors), errors
    missing = session.request("launch", {"program": os.path.join(session.directory, "missing.ks")})
    assert not missing["success"]


def test_malformed_and_untimely_requests_get_errors_and_no_crash(sessions):
    session = sessions(FACT)
    client = session.client
    body = b"{not json"
    client.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    client.process.stdin.flush()
    for command, arguments in [("frobnicate", {}), ("stackTrace", {"threadId": 1}), ("variables", {}),
                               ("evaluate", {"expression": "n"}), ("continue", {"threadId": 1}),
                               ("setBreakpoints", {"source": {"path": session.path}}),
                               ("setBreakpoints", {"breakpoints": [{"line": "five"}]}),
                               ("launch", {"program": session.path})]:
        answer = session.request(command, arguments)
        assert not answer["success"] and answer["message"], (command, answer)
    session.breakpoints(5)
    session.start()
    session.stopped("breakpoint")
    for arguments in [{"frameId": 999}, {"frameId": "x"}, {}]:
        assert not session.request("scopes", arguments)["success"]
    assert not session.request("variables", {"variablesReference": 12345})["success"]
    assert not session.request("evaluate", {"expression": "n +", "frameId": 1})["success"]
    assert not session.request("evaluate", {"expression": "n : 2"})["success"]
    assert session.stack()[0]["name"] == "fact"
