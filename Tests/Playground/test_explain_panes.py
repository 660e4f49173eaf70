"""The panes that show how the compiler works (SPEC §7), in Debian's chromium: the optimiser
pass by pass, and control-flow graphs, on a program typed and on every example."""
import os
import re
import urllib.parse

from playwright.sync_api import expect

from test_browser import set_program

FIB = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(10)"
DIAMOND = "def choose(x) if x < 3 then 1 else 2\nchoose(1)"


def graph_source(page):
    """The SVG the CFG pane shows, decoded from its image's data URL."""
    src = page.locator("#cfg img").get_attribute("src")
    return urllib.parse.unquote(src.split(",", 1)[1])


def test_the_passes_pane_lists_what_each_pass_changed(page):
    set_program(page, FIB)
    page.get_by_role("tab", name="Passes").click()
    passes = page.locator("#passes-list button")
    expect(passes.first).to_be_visible()
    changed = passes.count()
    assert changed > 3
    # The first pass that changed something is selected, its IR shown before and after.
    expect(passes.first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pass-before")).not_to_be_empty()
    assert page.locator("#pass-before").text_content() != page.locator("#pass-after").text_content()
    expect(page.locator("#passes-summary")).to_contain_text("changed the IR")
    # Passes that changed nothing are hidden until asked for.
    page.get_by_label("Show passes that changed nothing").check()
    expect(page.locator("#passes-list li.unchanged").first).to_be_visible()
    assert passes.count() > changed
    page.get_by_label("Show passes that changed nothing").uncheck()
    # One function's passes; SROA takes its parameter out of memory.
    page.get_by_label("Function of the passes").select_option("fib")
    expect(passes.first).to_contain_text(" on fib")
    assert all(text.endswith(" on fib") for text in passes.all_text_contents())
    page.get_by_role("button", name="SROAPass on fib").click()
    expect(page.locator("#pass-before")).to_contain_text("alloca double")
    expect(page.locator("#pass-after")).not_to_contain_text("alloca")


def test_the_cfg_pane_draws_the_chapter_5_diamond(page):
    set_program(page, DIAMOND)
    page.get_by_role("tab", name="CFG").click()
    expect(page.locator("#cfg img")).to_be_visible()
    page.get_by_label("Function of the graph").select_option("choose")
    expect(page.locator("#cfg img")).to_have_attribute("alt", "Control-flow graph of choose")
    svg = graph_source(page)
    for block in ["entry:", "then:", "else:", "ifcont:", "phi double"]:
        assert block in svg, block
    assert svg.count(">T</text>") == 1 and svg.count(">F</text>") == 1
    expect(page.locator("#cfg-export")).to_have_attribute("href", page.locator("#cfg img").get_attribute("src"))
    # The machine code's graph, for a target chosen.
    page.get_by_label("Graph of").select_option("aarch64")
    expect(page.locator("#cfg img")).to_be_visible()
    page.wait_for_function("decodeURIComponent(document.querySelector('#cfg img').src).includes('fcmp')")


def test_the_new_panes_are_reachable_by_keyboard(page):
    page.get_by_role("tab", name="Assembly").click()
    page.get_by_role("tab", name="Assembly").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-passes"
    expect(page.locator("#pane-passes")).to_be_visible()
    expect(page.locator("#passes-list button").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-cfg"
    expect(page.locator("#cfg img")).to_be_visible()
    # Into the pane's controls and the list of passes with Tab, as any control.
    page.get_by_role("tab", name="Passes").click()
    page.locator("#passes-list button").nth(1).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#passes-list button").nth(1)).to_have_attribute("aria-pressed", "true")


def test_screenshot_of_the_graph(page):
    """Takes docs/playground.png when KS_SCREENSHOT names where to write it: the fib example,
    its function's graph at -O0 (the `if` diamond), with the source beside it."""
    path = os.environ.get("KS_SCREENSHOT")
    page.get_by_label("Example").select_option(label="fib")
    page.get_by_role("tab", name="CFG").click()
    expect(page.locator("#cfg img")).to_be_visible()
    page.get_by_label("Function of the graph").select_option("fib")
    expect(page.locator("#cfg img")).to_have_attribute("alt", "Control-flow graph of fib")
    page.wait_for_function("document.querySelector('#cfg img').complete")
    if path:
        page.screenshot(path=path)


def test_every_example_in_both_panes(page):
    names = page.locator("#examples option").all_text_contents()[1:]
    assert len(names) >= 5
    for name in names:
        page.get_by_label("Example").select_option(label=name)
        page.get_by_role("tab", name="Passes").click()
        expect(page.locator("#passes-list button").first).to_be_visible()
        page.get_by_role("tab", name="CFG").click()
        expect(page.locator("#cfg img")).to_be_visible()
        assert "<svg" in graph_source(page), name


def test_assembly_hides_directives_labels_and_comments_unless_asked(page):
    set_program(page, "def twice(x) x * 2.5\ntwice(4)")
    page.get_by_role("tab", name="Assembly").click()
    listing = page.locator("#asm")
    for target, first in [("x86-64", "twice:"), ("aarch64", "twice:"), ("riscv64", "twice:"), ("wasm32", "twice:")]:
        page.get_by_label("Target").select_option(target)
        page.wait_for_function(
            "(first) => document.querySelector('#asm').textContent.startsWith(first)", arg=first)
        text = listing.text_content()
        assert ".p2align" not in text and ".section" not in text and ".Lfunc_end" not in text, (target, text)
        assert "//" not in text and "# " not in text, (target, text)
    page.get_by_label("Target").select_option("x86-64")
    page.get_by_label("Show directives").check()
    expect(listing).to_contain_text(".p2align")
    expect(listing).to_contain_text(".quad")
    page.get_by_label("Show directives").uncheck()
    expect(listing).not_to_contain_text(".p2align")
    # LLVM's listing has no comments and no unused labels once the debug noise is gone;
    # asking for them changes nothing else (AssemblyFiltersTests cover the filters).
    page.get_by_label("Show comments").check()
    page.get_by_label("Show unused labels").check()
    expect(listing).to_contain_text("retq")
    assert listing.text_content().startswith("twice:")


def test_hovering_an_instruction_explains_it(page):
    set_program(page, "def twice(x) x * 2\ntwice(4)")
    page.get_by_role("tab", name="IR").click()
    line = page.locator("#ir .line", has_text="fmul")
    expect(line.first).to_have_attribute("title", "fmul: Multiplies two doubles.")
    page.get_by_role("tab", name="Assembly").click()
    for target, mnemonic in [("x86-64", "addsd"), ("aarch64", "fadd"), ("riscv64", "fadd.d"), ("wasm32", "f64.add")]:
        page.get_by_label("Target").select_option(target)
        line = page.locator("#asm .line", has_text=mnemonic).first
        expect(line).to_have_attribute("title", re.compile(rf"^{re.escape(mnemonic)}: Adds two doubles"))
    # A label explains nothing.
    assert page.locator("#asm .line").first.get_attribute("title") is None


def source_colour(locator):
    return locator.evaluate("(e) => e.style.getPropertyValue('--source-colour')")


def test_a_source_line_has_one_colour_in_every_pane_and_lights_them_all(page):
    set_program(page, "def twice(x)\nx * 2\ntwice(4)")
    # Every pane that shows what line 2 became gives it line 2's colour.
    colours = {}
    page.get_by_role("tab", name="Tokens").click()
    token = page.locator("#tokens .line", has_text="2:1 ").first
    expect(token).to_have_class(re.compile("sourced"))
    colours["tokens"] = source_colour(token)
    page.get_by_role("tab", name="Syntax tree").click()
    node = page.locator("#tree g[data-source-line='2']").first
    expect(node).to_have_class(re.compile("sourced"))
    colours["tree"] = source_colour(node)
    page.get_by_role("tab", name="IR").click()
    ir_line = page.locator("#ir .line", has_text="fmul").first
    expect(ir_line).to_have_attribute("data-source-line", "2")
    colours["ir"] = source_colour(ir_line)
    page.get_by_role("tab", name="Assembly").click()
    asm_line = page.locator("#asm .line[data-source-line='2']").first
    expect(asm_line).to_be_visible()
    colours["asm"] = source_colour(asm_line)
    gutter = page.locator(".CodeMirror-code > div").nth(1).locator(".source-colour")
    colours["editor"] = gutter.get_attribute("data-colour")
    assert len(set(colours.values())) == 1 and colours["ir"], colours
    # Hovering an assembly line of line 2 lights up the line in the editor and everything
    # else that came from it; the IR of line 1 stays dark.
    asm_line.hover()
    expect(asm_line).to_have_class(re.compile("linked"))
    assert page.locator(".CodeMirror .source-linked").count() == 1
    assert page.locator("#ir .line.linked").count() >= 1
    assert all(line.get_attribute("data-source-line") == "2" for line in page.locator(".line.linked").all())
    # With the keyboard: the cursor's line is the one lit.
    page.locator(".CodeMirror").click()
    page.keyboard.press("Control+Home")
    expect(page.locator("#asm .line.linked")).to_have_count(0)
    page.keyboard.press("ArrowDown")
    expect(page.locator("#asm .line.linked").first).to_have_attribute("data-source-line", "2")


def test_keywords_and_tree_nodes_lead_to_their_tutorial_chapter(page):
    set_program(page, "def f(n) var s = 0 in (for i = 0, i < n in s = s + i) + s\nf(3)")
    page.locator(".CodeMirror .cm-keyword", has_text="for").first.hover()
    explanation = page.locator("#explanation")
    expect(explanation).to_contain_text("for i = start, i < end, step in body")
    expect(explanation.get_by_role("link")).to_have_attribute(
        "href", "https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl05.html")
    page.locator(".CodeMirror .cm-keyword", has_text="var").first.hover()
    expect(explanation.get_by_role("link")).to_contain_text("Tutorial chapter 7")
    page.get_by_role("tab", name="Syntax tree").click()
    loop = page.locator("#tree a", has=page.locator("text", has_text=re.compile(r"(^|: )For$")))
    expect(loop).to_have_attribute("href", "https://llvm.org/docs/tutorial/MyFirstLanguageFrontend/LangImpl05.html")
    assert "tutorial chapter 5" in loop.locator("title").text_content()
