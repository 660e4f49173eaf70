"""The page as a user meets it, in Debian's chromium: type, run, read the Output, see an error
marker, switch the panes, share and reopen a link, use the keyboard and a phone."""
import os
import re

from playwright.sync_api import expect


def set_program(page, text):
    """Types `text` into the editor as a user would (after clearing it)."""
    page.locator(".CodeMirror").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for line in text.split("\n"):
        page.keyboard.type(line)
        page.keyboard.press("Enter")
        # CodeMirror keeps the previous line's indentation; the programs here have none.
        page.keyboard.press("Home")
        page.keyboard.press("Shift+Home")


def editor_text(page):
    return page.evaluate("document.querySelector('.CodeMirror').CodeMirror.getValue()")


def test_typing_a_program_and_running_it_shows_its_output(page):
    set_program(page, "extern putchard(c)\ndef twice(x) x * 2\ntwice(21)\nputchard(72)")
    page.get_by_role("button", name="Run").click()
    output = page.get_by_label("Output")
    expect(output).to_have_text(re.compile(r"^42\nH\n0\n"))
    expect(page.locator("#status")).to_contain_text("exit status 0")


def test_ctrl_enter_runs_and_input_reaches_the_program(page):
    set_program(page, "extern readd()\nreadd() * 3")
    page.get_by_label("Standard input").fill("14")
    page.locator(".CodeMirror").click()
    page.keyboard.press("Control+Enter")
    expect(page.get_by_label("Output")).to_have_text("42\n")


def test_keywords_are_highlighted_while_included(page):
    set_program(page, "var i = 0\nwhile i < 3 in i = i + 1\ni")
    keywords = page.locator(".CodeMirror .cm-keyword")
    expect(keywords).to_have_text(["var", "while", "in"])
    page.get_by_role("button", name="Run").click()
    expect(page.get_by_label("Output")).to_have_text("0\n3\n")


def test_an_error_is_marked_in_the_editor_and_explained_on_run(page):
    set_program(page, "def f(x) x + y\nf(1)")
    marker = page.locator(".CodeMirror-lint-mark-error")
    expect(marker).to_have_count(1)
    expect(marker).to_have_text("y")
    page.get_by_role("button", name="Run").click()
    expect(page.get_by_label("Output")).to_contain_text("main.ks:1:14: error: unknown variable 'y'")


def test_the_panes_show_every_stage(page):
    set_program(page, "def twice(x) x * 2\ntwice(4)")
    page.get_by_role("tab", name="Tokens").click()
    expect(page.locator("#tokens")).to_contain_text("keyword     def")
    page.get_by_role("tab", name="Syntax tree").click()
    tree = page.locator("#tree svg")
    expect(tree).to_have_count(2)
    expect(page.locator("#tree text", has_text="Binary '*'")).to_have_count(1)
    page.get_by_role("tab", name="IR").click()
    expect(page.locator("#ir")).to_contain_text("define double @twice(double %x)")
    expect(page.locator("#ir")).not_to_contain_text("!dbg")
    page.get_by_label("Before/after optimisation").check()
    expect(page.locator("#ir .diff-remove").first).to_be_visible()
    expect(page.locator("#ir .diff-add").first).to_be_visible()
    page.get_by_role("tab", name="Assembly").click()
    expect(page.locator("#asm")).to_contain_text("twice:")
    # Instructions only that target has; answers to earlier selections must never win.
    for target, instruction in [("aarch64", "fmov"), ("riscv64", "fadd.d"), ("wasm32", "end_function"),
                                ("x86-64", "addsd")]:
        page.get_by_label("Target").select_option(target)
        expect(page.locator("#asm")).to_contain_text(instruction)


def test_a_source_line_highlights_its_ir_and_assembly(page):
    set_program(page, "def twice(x)\nx * 2\ntwice(4)")
    page.get_by_role("tab", name="IR").click()
    expect(page.locator("#ir")).to_contain_text("fmul")
    line_two = page.locator(".CodeMirror-line").nth(1)
    line_two.hover()
    linked = page.locator("#ir .line.linked")
    expect(linked.first).to_contain_text("fmul")
    page.get_by_role("tab", name="Assembly").click()
    expect(page.locator("#asm")).to_contain_text("twice:")
    line_two.hover()
    expect(page.locator("#asm .line.linked").first).to_be_visible()


def test_share_gives_a_link_that_reopens_the_program(page, browser, server):
    program = "def sq(x) x * x\nsq(12)"
    set_program(page, program)
    page.get_by_role("button", name="Share").click()
    expect(page).to_have_url(re.compile(r"/s/[0-9A-Za-z]{10}$"))
    link = page.url
    other = browser.new_context().new_page()
    other.goto(link)
    expect(other.locator("#status")).to_contain_text("Opened snippet")
    assert other.evaluate("document.querySelector('.CodeMirror').CodeMirror.getValue()") == program + "\n"
    other.get_by_role("button", name="Run").click()
    expect(other.get_by_label("Output")).to_have_text("144\n")
    other.context.close()


def test_the_examples_menu_loads_a_repository_program(page):
    page.get_by_label("Example").select_option(label="fib")
    assert "def fib" in editor_text(page)
    page.get_by_role("button", name="Run").click()
    expect(page.get_by_label("Output")).not_to_be_empty()


def test_everything_is_reachable_by_keyboard(page):
    page.locator(".CodeMirror").click()
    # Tab leaves the editor rather than trapping the focus.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "stdin"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "tab-output"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-tokens"
    expect(page.locator("#pane-tokens")).to_be_visible()
    page.get_by_role("button", name="Run").focus()
    page.keyboard.press("Enter")
    page.get_by_role("tab", name="Output").focus()
    expect(page.get_by_label("Output")).not_to_be_empty()


def test_the_page_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(server.url)
    phone.wait_for_selector(".CodeMirror")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # Stacked, not overlapping: the input box ends above the panes' tabs.
    stdin = phone.get_by_label("Standard input").bounding_box()
    tabs = phone.get_by_role("tablist").bounding_box()
    assert stdin["y"] + stdin["height"] <= tabs["y"]
    phone.get_by_role("button", name="Run").tap()
    expect(phone.get_by_label("Output")).to_have_text("55\n")
    context.close()


def test_a_source_line_lights_up_its_ir_in_a_long_program(page):
    page.get_by_label("Example").select_option(label="mandelbrot")
    page.get_by_role("tab", name="IR").click()
    expect(page.locator("#ir")).to_contain_text("define")
    # The mouse over `def unary!` (line 5) lights up its IR; moved there by coordinates, as
    # hovering the element would scroll the editor sideways to centre the long line.
    box = page.locator(".CodeMirror-line").nth(4).bounding_box()
    page.mouse.move(box["x"] + 40, box["y"] + box["height"] / 2)
    expect(page.locator("#ir .line.linked").first).to_contain_text("fcmp")
