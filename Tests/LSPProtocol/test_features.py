"""`kaleidoscope lsp` through pytest-lsp's client, which also checks every answer against
the protocol's types: the features as an editor uses them."""
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import TOOL

URI = "file:///work/fib.ks"
TEXT = """# The Fibonacci numbers.
def fib(n)
  if n < 3 then 1 else fib(n - 1) + fob(n - 2)
var total = fib(10)
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[TOOL, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri="file:///work")
    )
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="kaleidoscope", version=1, text=TEXT)
        )
    )
    await lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    yield
    await lsp_client.shutdown_session()


def at(line, character):
    return types.Position(line=line, character=character)


def doc():
    return types.TextDocumentIdentifier(uri=URI)


async def test_diagnostics_follow_incremental_changes(client: LanguageClient):
    [diagnostic] = client.diagnostics[URI]
    assert diagnostic.message == "unknown function 'fob'"
    assert diagnostic.range == types.Range(start=at(2, 36), end=at(2, 39))
    assert diagnostic.code == "unknown-function"
    assert diagnostic.related_information[0].message == "did you mean 'fib'?"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=at(2, 36), end=at(2, 39)), text="fib")],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []


async def test_hover_definition_references(client: LanguageClient):
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc(), position=at(3, 13)))
    assert "def fib(n)" in hover.contents.value and "The Fibonacci numbers." in hover.contents.value
    definition = await client.text_document_definition_async(types.DefinitionParams(text_document=doc(), position=at(3, 13)))
    assert definition.range == types.Range(start=at(1, 4), end=at(1, 7))
    references = await client.text_document_references_async(
        types.ReferenceParams(text_document=doc(), position=at(1, 5), context=types.ReferenceContext(include_declaration=True))
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in references) == [(1, 4), (2, 23), (3, 12)]


async def test_rename(client: LanguageClient):
    edit = await client.text_document_rename_async(types.RenameParams(text_document=doc(), position=at(1, 8), new_name="k"))
    assert sorted((e.range.start.line, e.range.start.character) for e in edit.changes[URI]) == [(1, 8), (2, 5), (2, 27), (2, 40)]
    with pytest.raises(Exception, match="keyword"):
        await client.text_document_rename_async(types.RenameParams(text_document=doc(), position=at(1, 8), new_name="else"))


async def test_completion_and_signature_help(client: LanguageClient):
    completion = await client.text_document_completion_async(types.CompletionParams(text_document=doc(), position=at(2, 10)))
    labels = {item.label: item.detail for item in completion.items}
    assert labels["fib"] == "def fib(n)" and labels["n"] == "parameter" and labels["total"] == "global number"
    assert labels["for"] == "keyword"
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(text_document=doc(), position=at(3, 16)))
    assert help.signatures[0].label == "fib(n)" and help.active_parameter == 0


async def test_symbols_folding_and_tokens(client: LanguageClient):
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc()))
    assert [s.name for s in symbols] == ["fib", "total"]
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="tot"))
    assert [s.name for s in found] == ["total"]
    folding = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc()))
    assert [(f.start_line, f.end_line) for f in folding] == [(1, 2)]
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc()))
    assert len(tokens.data) % 5 == 0 and len(tokens.data) > 50


async def test_quick_fix_and_formatting(client: LanguageClient):
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(), range=types.Range(start=at(2, 36), end=at(2, 39)), context=types.CodeActionContext(diagnostics=[])
        )
    )
    assert [a.title for a in actions] == ["Change 'fob' to 'fib'"]
    assert actions[0].edit.changes[URI][0].new_text == "fib"
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=doc(), options=types.FormattingOptions(tab_size=2, insert_spaces=True))
    )
    assert [e.new_text for e in edits] == ["def fib(n) if n < 3 then 1 else fib(n - 1) + fob(n - 2)\n"]
    ranged = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=doc(), range=types.Range(start=at(3, 0), end=at(3, 5)),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert not ranged
