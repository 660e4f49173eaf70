"""The Step pane (SPEC §8) in Debian's chromium: a run walked forward and back, with the
source highlighted, the call stack, the variables, arrays as boxes and the output so far;
and every example."""
from playwright.sync_api import expect

from test_browser import set_program

FACT = "extern printd(x)\ndef fact(n) if n < 2 then 1 else n * fact(n - 1)\nprintd(fact(3))"
ARRAY = "var a[3]\ndef fill(i) if i < 3 then (a[i] = i * 10) + fill(i + 1) else a[1]\nfill(0)"


def test_stepping_forward_and_back_shows_the_stack_and_the_variables(page):
    set_program(page, FACT)
    page.get_by_role("tab", name="Step").click()
    position = page.locator("#step-position")
    expect(position).to_contain_text("Step 1 of ")
    expect(page.locator(".CodeMirror .step-current").first).to_be_visible()
    forward = page.get_by_role("button", name="Step forward")
    # Forward until three frames of fact are on the stack.
    for _ in range(40):
        if page.locator("#step-stack li").count() == 4:
            break
        forward.click()
    expect(page.locator("#step-stack li")).to_have_count(4)
    expect(page.locator("#step-stack li.current")).to_contain_text("fact")
    expect(page.locator(".frame").first).to_contain_text("n = 1")
    here = position.text_content()
    page.get_by_role("button", name="Step back").click()
    assert position.text_content() != here
    # The keyboard and the slider move too.
    page.get_by_role("button", name="Step back").focus()
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(here)
    page.get_by_label("Step of the run").fill("0")
    expect(position).to_contain_text("Step 1 of ")
    # At the end, the output so far is the run's.
    last = int(page.get_by_label("Step of the run").get_attribute("max"))
    page.get_by_label("Step of the run").fill(str(last))
    expect(page.locator("#step-output")).to_contain_text("6")
    expect(forward).to_be_disabled()


def test_arrays_are_boxes_with_the_elements_just_read_and_written_marked(page):
    set_program(page, ARRAY)
    page.get_by_role("tab", name="Step").click()
    expect(page.locator("#step-position")).to_contain_text("Step 1 of ")
    forward = page.get_by_role("button", name="Step forward")
    for kind in ("written", "read"):
        marked = page.locator(".cell." + kind)
        for _ in range(80):
            if marked.count():
                break
            forward.click()
        expect(marked).to_have_count(1)
    expect(page.get_by_role("list", name="Array a").get_by_role("listitem")).to_have_count(3)


def test_a_run_longer_than_the_trace_says_so(page):
    set_program(page, "while 1 in 0")
    page.get_by_role("tab", name="Step").click()
    expect(page.locator("#step-summary")).to_contain_text("past 20000 steps")
    expect(page.locator("#step-position")).to_contain_text("of 20000")


def test_every_example_steps(page):
    names = page.locator("#examples option").all_text_contents()[1:]
    for name in names:
        page.get_by_label("Example").select_option(label=name)
        page.get_by_role("tab", name="Step").click()
        expect(page.locator("#step-position")).to_contain_text("Step 1 of ", timeout=15000)
        page.get_by_role("button", name="Step forward").click()
        expect(page.locator("#step-position")).to_contain_text("Step 2 of ")
        page.get_by_role("tab", name="Output").click()
