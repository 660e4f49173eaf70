#!/usr/bin/env python3
"""REPL sessions through a real pseudo-terminal, as a person types them (pexpect).

    repl_session.py TOOL SCENARIO

Each scenario exits 0 when the REPL behaved, non-zero (with what it saw) otherwise.
Run by Tests/EndToEndTests/InteractiveReplTests.swift.
"""
import os
import sys
import tempfile
import time

import pexpect

TOOL = sys.argv[1]
PROMPT = "ready> "
CONTINUATION = "  ...> "
STATE = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()


def spawn(color=False):
    env = dict(os.environ, XDG_STATE_HOME=STATE, TERM="xterm")
    env.pop("NO_COLOR", None)
    if not color:
        env["NO_COLOR"] = "1"
    child = pexpect.spawn(TOOL, ["repl"], env=env, encoding="utf-8", timeout=20, dimensions=(24, 200))
    child.expect_exact(PROMPT)
    # libedit initialises on its first read and discards what was typed before; a person
    # never types that fast.
    time.sleep(0.3)
    return child


def quit_with_ctrl_d(child):
    """Ctrl-D on an empty line ends the session with status 0."""
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, f"exit status {child.exitstatus}"


def line(child, text, expect):
    child.sendline(text)
    child.expect_exact(expect)
    child.expect_exact(PROMPT)


def enter(child, text):
    """Types a line that prints nothing (a definition, a command) and waits for the prompt."""
    child.sendline(text)
    child.expect_exact(PROMPT)


def define_and_call():
    child = spawn()
    enter(child, "def sq(x) x * x")
    line(child, "sq(12)", "144")


def redefinition_reaches_earlier_callers():
    child = spawn()
    for text in ["def g(x) x + 1", "def f(x) g(x) * 2"]:
        enter(child, text)
    line(child, "f(1)", "4")
    enter(child, "def g(x) x + 10")
    line(child, "f(1)", "22")


def error_then_carry_on():
    child = spawn()
    line(child, "1 +* 2", "error: ")
    line(child, "40 + 2", "42")


def colour_on_a_terminal():
    child = spawn(color=True)
    line(child, "nosuch(1)", "\x1b[")


def multi_line_definition():
    child = spawn()
    child.sendline("def tripled(x)")
    child.expect_exact(CONTINUATION)
    enter(child, "  x * 3")
    line(child, "tripled(14)", "42")


def completion():
    child = spawn()
    enter(child, "def elephant(x) x + 1")
    child.send("eleph\t")
    child.expect_exact("ant")  # what Tab added
    # Had Tab not completed the name, this would be an unknown function 'eleph'.
    line(child, "(41)", "42")
    # Globals complete too.
    enter(child, "var giraffes[] = [7, 8]")
    child.send("len(giraf\t")
    child.expect_exact("fes")
    line(child, ")", "2")


def line_editing():
    child = spawn()
    # Left arrow twice, then insert: "1+2" becomes "1+92"... typed as a person would.
    child.send("10+2")
    child.send("\x1b[D")  # left arrow
    child.send("3")  # 10+32
    child.send("\x01")  # Ctrl-A: start of line
    child.send("2")  # 210+32
    line(child, "", "242")


def history_across_sessions():
    child = spawn()
    line(child, "1234 + 1", "1235")
    child.sendeof()
    child.expect(pexpect.EOF)
    child = spawn()
    child.send("\x1b[A")  # up arrow: the last input of the previous session
    line(child, "", "1235")


def ctrl_d_exits_cleanly():
    child = spawn()
    quit_with_ctrl_d(child)


def meta_commands():
    child = spawn()
    enter(child, "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)")
    line(child, ":type fib", "def fib(n)    # defined at <repl>:1:5")
    line(child, ":ir fib", "define double @fib.")
    line(child, ":asm fib", "fib.")
    line(child, ":defs", "def fib(n)")
    line(child, ":ast 1 + 2 * 3", "1   *_")
    line(child, ":tokens f(x)", "1:2      punctuation (")
    enter(child, ":time on")
    child.sendline("20 + 22")
    child.expect(r"42\r\n\(compile [0-9.]+ ms, run [0-9.]+ ms\)")
    child.expect_exact(PROMPT)
    line(child, ":opt 9", "usage: :opt 0|1|2|3")
    line(child, ":nonsense", "unknown command ':nonsense'")
    child.sendline(":quit")
    child.expect(pexpect.EOF)


def ctrl_c_cancels_the_line():
    child = spawn()
    child.send("1 + 2 + ")
    child.expect_exact("1 + 2 + ")
    child.sendintr()
    child.expect_exact("^C")
    child.expect_exact(PROMPT)
    line(child, "5 * 5", "25")


def ctrl_c_interrupts_a_running_loop():
    child = spawn()
    enter(child, "def double(x) x * 2")
    child.sendline("for i = 0, 1 in 0")
    child.expect(r"for i = 0, 1 in 0\r\n")
    time.sleep(0.5)  # the loop is running
    child.sendintr()
    child.expect_exact("interrupted")
    child.expect_exact(PROMPT)
    # Every definition survived.
    line(child, "double(21)", "42")
    quit_with_ctrl_d(child)


def ctrl_c_right_after_enter_interrupts_a_loop():
    # The Ctrl-C comes while the input is still being compiled, before the loop runs: it
    # must stop the loop as soon as it starts, which never calls back to be polled.
    child = spawn()
    child.sendline("for i = 0, 1 in 0")
    child.expect(r"for i = 0, 1 in 0\r\n")
    child.sendintr()
    child.expect_exact("interrupted")
    child.expect_exact(PROMPT)
    line(child, "1 + 1", "2")
    quit_with_ctrl_d(child)


def ctrl_c_interrupts_a_recursion():
    # The calls start in the interpreter and go on in the new code once it is compiled;
    # Ctrl-C stops either, and the definition stays.
    child = spawn()
    child.sendline("def grow(n) if n < 1 then 0 else grow(n - 1) + grow(n - 1); grow(60)")
    child.expect(r"grow\(60\)\r\n")
    time.sleep(0.5)
    child.sendintr()
    child.expect_exact("interrupted")
    child.expect_exact(PROMPT)
    line(child, "grow(3) + 1", "1")
    quit_with_ctrl_d(child)


def ctrl_c_interrupts_a_read():
    # getchard() waits for input inside the C library's stdio, holding the lock of stdin.
    # Jumping out of it there would leave the lock held by a thread that then exits, and
    # the next read would wait forever; the runtime puts the interrupt off until the read
    # returns (cut short by the signal), then stops the code.
    child = spawn()
    enter(child, "extern getchard()")
    child.sendline("getchard()")
    child.expect(r"getchard\(\)\r\n")
    time.sleep(0.3)  # waiting for input
    child.sendintr()
    child.expect_exact("interrupted")
    child.expect_exact(PROMPT)
    child.sendline("getchard()")
    child.expect(r"getchard\(\)\r\n")
    child.sendline("x")
    child.expect_exact("120")
    child.expect_exact(PROMPT)
    quit_with_ctrl_d(child)


def step_on_a_terminal():
    """:step walks into a function a step at a time; after `c`, Ctrl-C stops an endless run."""
    child = spawn()
    enter(child, "def fact(n) if n < 2 then 1 else n * fact(n - 1)")
    child.sendline(":step fact(2)")
    child.expect_exact("top level")
    child.expect_exact("step> ")
    child.sendline("")
    child.expect_exact("→ fact(n = 2)")
    child.expect_exact("fact: n = 2")
    child.expect_exact("step> ")
    child.sendline("c")
    child.expect_exact("2")
    child.expect_exact(PROMPT)
    child.sendline(":step while 1 in 0")
    child.expect_exact("step> ")
    child.sendline("c")
    time.sleep(0.3)
    child.sendintr()
    child.expect_exact("interrupted")
    child.expect_exact(PROMPT)
    line(child, "1 + 1", "2")
    quit_with_ctrl_d(child)


def unwritable_history():
    # STATE is a regular file: the history directory cannot be made.
    child = spawn()
    child.sendline("6 * 7")
    child.expect_exact("42")
    child.expect_exact("warning: cannot write the history file")
    line(child, "1 + 1", "2")


if __name__ == "__main__":
    scenario = globals()[sys.argv[2]]
    try:
        scenario()
    except (pexpect.TIMEOUT, pexpect.EOF, AssertionError) as error:
        print(f"{sys.argv[2]} failed: {type(error).__name__} {error}")
        sys.exit(1)
